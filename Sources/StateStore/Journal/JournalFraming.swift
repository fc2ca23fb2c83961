import FoundationEssentials

/// How the change journal (an append-only log of changes beside the state file) frames its records, so
/// that a load finds every whole record and cuts a torn or damaged tail at the last good one.
///
/// A record is 8 bytes of frame, then its payload:
///
/// | bytes | field |
/// | --- | --- |
/// | 0–3 | the payload's length, `UInt32` little-endian, 1 to ``maximumPayloadLength`` |
/// | 4–7 | CRC-32C of bytes 0–3 and the payload, `UInt32` little-endian |
/// | 8… | the payload |
///
/// The checksum covers the length, so a damaged length is caught too; a length of 0 is invalid, so a tail of
/// zeros (blocks a file system allocated but a crash left unwritten) is never read as records.
package enum JournalFraming {
    /// The bytes of a record's frame before its payload.
    package static let frameLength = 8
    /// The largest payload a record may have (64 MiB): a longer length is damage, not a record.
    package static let maximumPayloadLength = 64 << 20

    /// `payload` framed as one record. The payload must hold 1 to ``maximumPayloadLength`` bytes.
    package static func frame(_ payload: some Collection<UInt8>) -> [UInt8] {
        precondition(
            (1...maximumPayloadLength).contains(payload.count), "a journal record holds 1 to 64 MiB")
        let length = UInt32(payload.count)
        let lengthBytes = littleEndianBytes(length)
        let checksum = CRC32C.checksum(payload, continuing: CRC32C.checksum(lengthBytes))
        var record = lengthBytes + littleEndianBytes(checksum)
        record.reserveCapacity(frameLength + payload.count)
        record.append(contentsOf: payload)
        return record
    }

    /// Why reading stopped before the end of the bytes.
    package enum Damage: Equatable, Sendable, CustomStringConvertible {
        /// The bytes end inside a record's frame or payload: an append a crash cut short.
        case truncated(needed: Int, available: Int)
        /// A length of 0 or above ``JournalFraming/maximumPayloadLength``.
        case invalidLength(UInt32)
        /// The checksum does not match the length and payload.
        case checksumMismatch

        package var description: String {
            switch self {
            case .truncated(let needed, let available):
                "the last record is cut short (\(available) of \(needed) bytes)"
            case .invalidLength(let length): "a record claims \(length) bytes, which no record holds"
            case .checksumMismatch: "a record's checksum does not match its bytes"
            }
        }
    }

    /// What ``scan(_:)`` found: the payloads of the whole records, in order, and where the good bytes end.
    package struct Scan: Equatable, Sendable {
        /// The byte ranges of the payloads of the whole, intact records, from the first.
        package var payloads: [Range<Int>] = []
        /// The length of the bytes that hold those records: a journal is cut to it before anything is appended.
        package var validLength = 0
        /// Why reading stopped before the end; `nil` when every byte belongs to a whole record.
        package var damage: Damage?
        /// Where the first bad record starts (``validLength``, when there is ``damage``).
        package var damageOffset: Int?

        mutating func record(_ found: Damage, at offset: Int) {
            damage = found
            damageOffset = offset
        }
    }

    /// Reads the records of `bytes` from the start, stopping at the first record that is cut short, has an
    /// invalid length or fails its checksum: nothing after a bad record is trusted, since its length may be wrong.
    /// With `recordLimit`, stops after that many records (without damage; ``Scan/validLength`` is then where they
    /// end).
    package static func scan(_ bytes: [UInt8], recordLimit: Int = .max) -> Scan {
        bytes.withUnsafeBytes { scan($0, recordLimit: recordLimit) }
    }

    /// ``scan(_:recordLimit:)`` of the bytes at `bytes`: a file mapped into memory is scanned in place.
    ///
    /// The frames are walked first, by their lengths alone, then every record's checksum is checked at once
    /// (``CRC32C/firstBadRecord(in:payloads:)``, three records at a time) and the records from the first that fails
    /// are dropped: what a walk that checked each record before the next finds, since a record whose checksum fails
    /// is where it would have stopped whatever followed.
    package static func scan(_ bytes: UnsafeRawBufferPointer, recordLimit: Int = .max) -> Scan {
        var scan = Scan()
        var offset = 0
        while offset < bytes.count, scan.payloads.count < recordLimit {
            guard bytes.count - offset >= frameLength else {
                scan.record(.truncated(needed: frameLength, available: bytes.count - offset), at: offset)
                break
            }
            let length = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            guard length >= 1, Int(length) <= maximumPayloadLength else {
                scan.record(.invalidLength(length), at: offset)
                break
            }
            let end = offset + frameLength + Int(length)
            guard end <= bytes.count else {
                scan.record(.truncated(needed: frameLength + Int(length), available: bytes.count - offset), at: offset)
                break
            }
            scan.payloads.append((offset + frameLength)..<end)
            offset = end
            scan.validLength = end
        }
        let intact = CRC32C.firstBadRecord(in: bytes, payloads: scan.payloads)
        if intact < scan.payloads.count {
            let start = scan.payloads[intact].lowerBound - frameLength
            scan.payloads.removeSubrange(intact...)
            scan.record(.checksumMismatch, at: start)
            scan.validLength = start
        }
        return scan
    }

    private static func littleEndianBytes(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
