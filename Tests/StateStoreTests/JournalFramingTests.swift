import Foundation
import Testing

@testable import StateStore

/// The change journal's record framing (issue 28's first piece): whole records read back, and a tail cut or
/// damaged at any byte is cut at the last whole record with what went wrong.
@Suite("Change journal: record framing")
struct JournalFramingTests {
    static let payloads: [[UInt8]] = [
        Array(#"{"op":"addProject","id":"p1"}"#.utf8), [0x00], Array(repeating: 0xff, count: 300),
        Array(#"{"op":"removeProject","id":"p1"}"#.utf8),
    ]
    static let journal = payloads.flatMap { JournalFraming.frame($0) }

    @Test func crc32cCheckValue() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
        #expect(CRC32C.checksum([UInt8]()) == 0)
        let whole = CRC32C.checksum(Array("123456789".utf8))
        #expect(CRC32C.checksum(Array("6789".utf8), continuing: CRC32C.checksum(Array("12345".utf8))) == whole)
    }

    /// The instruction (SSE 4.2 or AArch64 CRC, where the processor has it), the C table and a bit-at-a-time
    /// reference agree at every length up to 300 bytes, at every alignment, continued or not, and on a non-contiguous
    /// sequence.
    @Test func crc32cInstructionTableAndReferenceAgree() {
        func reference(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
            var value = ~crc
            for byte in bytes {
                value ^= UInt32(byte)
                for _ in 0..<8 { value = value & 1 == 1 ? (value >> 1) ^ 0x82F6_3B78 : value >> 1 }
            }
            return ~value
        }
        var generator = SystemRandomNumberGenerator()
        let pool = (0..<320).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for length in 0...300 {
            for start in 0..<8 where start + length <= pool.count {
                let bytes = Array(pool[start..<(start + length)])
                let expected = reference(bytes, continuing: 0x1234_5678)
                #expect(CRC32C.checksum(pool[start..<(start + length)], continuing: 0x1234_5678) == expected)
                #expect(CRC32C.portableChecksum(bytes, continuing: 0x1234_5678) == expected)
            }
        }
        let sequence = pool.lazy.map { $0 }.filter { _ in true }
        #expect(CRC32C.checksum(sequence) == reference(pool))
        #if arch(x86_64)
        // Every x86-64 processor since 2008 has SSE 4.2; this machine's must not fall back to the table unseen.
        #expect(CRC32C.usesInstruction)
        #endif
    }

    /// Above three blocks of 4 KiB the instruction runs three streams at once and joins them: the table agrees at
    /// lengths around every multiple of the three blocks, at every alignment, continued or not.
    @Test func crc32cOfLargeBuffersAgreesWithTheTable() {
        var generator = SystemRandomNumberGenerator()
        let pool = (0..<(40 << 10)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let block = 3 * 4096
        for length in [block - 1, block, block + 1, block + 7, 2 * block - 8, 2 * block + 5, 3 * block + 4093] {
            for start in [0, 1, 3, 7] where start + length <= pool.count {
                let bytes = Array(pool[start..<(start + length)])
                for crc: UInt32 in [0, 0x1234_5678] {
                    #expect(
                        CRC32C.checksum(bytes, continuing: crc) == CRC32C.portableChecksum(bytes, continuing: crc),
                        "\(length) bytes from \(start)")
                }
            }
        }
    }

    /// The scan checks every record's checksum after walking the frames, three records at a time: it finds what
    /// a record-by-record check finds, for a bit flipped in any record of many, of every length.
    @Test func aFlippedBitInAnyOfManyRecordsStopsWhereARecordByRecordCheckStops() {
        var generator = SystemRandomNumberGenerator()
        let payloads = (0..<40).map { index in
            (0..<(1 + index * 7 % 150)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        }
        let journal = payloads.flatMap { JournalFraming.frame($0) }
        /// The scan as it was before the checksums were checked apart: each record's, before the next is read.
        func recordByRecord(_ bytes: [UInt8]) -> JournalFraming.Scan {
            var scan = JournalFraming.Scan()
            var offset = 0
            while offset < bytes.count {
                guard bytes.count - offset >= 8 else {
                    scan.record(.truncated(needed: 8, available: bytes.count - offset), at: offset)
                    break
                }
                let length = bytes[offset..<(offset + 4)].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                guard length >= 1, Int(length) <= JournalFraming.maximumPayloadLength else {
                    scan.record(.invalidLength(length), at: offset)
                    break
                }
                let end = offset + 8 + Int(length)
                guard end <= bytes.count else {
                    scan.record(.truncated(needed: 8 + Int(length), available: bytes.count - offset), at: offset)
                    break
                }
                let stored = bytes[(offset + 4)..<(offset + 8)].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                let expected = CRC32C.portableChecksum(
                    Array(bytes[(offset + 8)..<end]),
                    continuing: CRC32C.portableChecksum(Array(bytes[offset..<(offset + 4)])))
                guard stored == expected else {
                    scan.record(.checksumMismatch, at: offset)
                    break
                }
                scan.payloads.append((offset + 8)..<end)
                offset = end
                scan.validLength = end
            }
            return scan
        }
        #expect(JournalFraming.scan(journal) == recordByRecord(journal))
        #expect(JournalFraming.scan(journal).payloads.count == payloads.count)
        for offset in stride(from: 0, to: journal.count, by: 13) {
            var damaged = journal
            damaged[offset] ^= 1 << (offset % 8)
            #expect(JournalFraming.scan(damaged) == recordByRecord(damaged), "byte \(offset)")
        }
    }

    @Test func wholeRecordsReadBackInOrder() {
        let scan = JournalFraming.scan(Self.journal)
        #expect(scan.payloads.map { Array(Self.journal[$0]) } == Self.payloads)
        #expect(scan.validLength == Self.journal.count && scan.damage == nil && scan.damageOffset == nil)
    }

    /// A crash can end the file anywhere in the last append: every cut keeps exactly the records before it.
    @Test func aTailCutAtEveryByteOfTheLastRecordKeepsTheRecordsBefore() {
        let lastStart = Self.journal.count - JournalFraming.frame(Self.payloads.last!).count
        for end in lastStart..<Self.journal.count {
            let scan = JournalFraming.scan(Array(Self.journal[..<end]))
            #expect(scan.payloads.count == Self.payloads.count - 1, "cut at \(end)")
            #expect(scan.validLength == lastStart)
            if end > lastStart {
                #expect(scan.damageOffset == lastStart)
                guard case .truncated = scan.damage else {
                    Issue.record("cut at \(end): \(String(describing: scan.damage))")
                    continue
                }
            } else {
                #expect(scan.damage == nil)
            }
        }
    }

    /// A flipped bit anywhere in a record (its length, checksum or payload) stops the scan at that record.
    @Test func aFlippedBitAnywhereStopsAtItsRecord() {
        var starts: [Int] = [0]
        for payload in Self.payloads { starts.append(starts.last! + JournalFraming.frame(payload).count) }
        for offset in 0..<Self.journal.count {
            for bit in [0, 3, 7] {
                var damaged = Self.journal
                damaged[offset] ^= 1 << bit
                let record = starts.lastIndex { $0 <= offset }!
                let scan = JournalFraming.scan(damaged)
                #expect(scan.payloads.count == record, "bit \(bit) of byte \(offset)")
                #expect(scan.validLength == starts[record] && scan.damageOffset == starts[record])
                #expect(scan.damage != nil)
            }
        }
    }

    @Test func aTailOfZerosIsDamageNotRecords() {
        let scan = JournalFraming.scan(Self.journal + Array(repeating: 0, count: 4096))
        #expect(scan.payloads.count == Self.payloads.count)
        #expect(scan.validLength == Self.journal.count && scan.damage == .invalidLength(0))
    }

    @Test func anImpossibleLengthIsDamage() {
        let scan = JournalFraming.scan([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 1])
        #expect(scan.payloads.isEmpty && scan.validLength == 0 && scan.damage == .invalidLength(0xffff_ffff))
        #expect(scan.damage?.description.contains("4294967295 bytes") == true)
    }
}
