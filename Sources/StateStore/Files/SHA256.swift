import CChecksum
import FoundationEssentials

/// SHA-256 (FIPS 180-4) of a byte buffer, for the identities StateStore records: the import marker's `sha256` (which
/// bytes were imported, so that a later start can tell the same legacy file from a new one) and the history
/// manifest's (what `verifyHistory()` and `workspaced check` compare). An identity, not a secret or a signature.
/// Written here so that a program using StateStore compiles no crypto library for it (swift-crypto brings
/// BoringSSL: 366 of 551 build steps of a StateStore-only package); the blocks are compressed in C
/// (Sources/CChecksum/sha256.c). Checked against FIPS 180-4's examples and, for every length from 0 to 1,024
/// bytes, against swift-crypto (SHA256Tests).
package enum SHA256Digest {
    /// The initial hash value: the first 32 bits of the fractional parts of the square roots of the first 8 primes.
    private static let initialHash: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]

    /// The 32-byte digest of `bytes`.
    ///
    /// The whole 64-byte blocks are read where the bytes are; only the last, padded block or two are copied, so
    /// that hashing a file of many megabytes holds no second copy of it. The processor's SHA extensions compress
    /// them where it has them, portable C otherwise or when `usingInstructions` is false (the tests compare the
    /// two).
    package static func hash(_ bytes: Data, usingInstructions: Bool = true) -> [UInt8] {
        var hasher = Hasher(usingInstructions: usingInstructions)
        bytes.withUnsafeBytes { hasher.update($0) }
        return hasher.finish()
    }

    /// Lowercase hex of the digest of `bytes`, 64 characters.
    package static func hex(_ bytes: Data) -> String {
        hex(digest: hash(bytes))
    }

    /// Lowercase hex of a 32-byte digest.
    package static func hex(digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(64)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The digest of a message given in pieces (a file read a piece at a time, so that it is never held whole):
    /// ``update(_:)`` with each piece in order, then ``finish()``.
    package struct Hasher {
        private var state = SHA256Digest.initialHash
        /// The bytes after the last whole block given, fewer than 64.
        private var pending: [UInt8] = []
        private var length: UInt64 = 0
        private let usingInstructions: Bool

        /// A hasher at the start of a message; `usingInstructions` as in ``SHA256Digest/hash(_:usingInstructions:)``.
        package init(usingInstructions: Bool = true) {
            self.usingInstructions = usingInstructions
            pending.reserveCapacity(128)
        }

        /// Adds the next bytes of the message: whole blocks are compressed where they are, the rest kept.
        package mutating func update(_ bytes: UnsafeRawBufferPointer) {
            length &+= UInt64(bytes.count)
            var start = 0
            if !pending.isEmpty {
                start = min(64 - pending.count, bytes.count)
                pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[0..<start]))
                guard pending.count == 64 else { return }
                let block = pending
                block.withUnsafeBytes { compress($0) }
                pending.removeAll(keepingCapacity: true)
            }
            let whole = (bytes.count - start) / 64 * 64
            compress(UnsafeRawBufferPointer(rebasing: bytes[start..<(start + whole)]))
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[(start + whole)...]))
        }

        /// The 32-byte digest of the bytes given: the rest of the message, a 0x80 byte, zeros up to 56 mod 64, then
        /// the length in bits as a big-endian UInt64 (one block or two).
        package mutating func finish() -> [UInt8] {
            var tail = pending
            tail.append(0x80)
            while tail.count % 64 != 56 { tail.append(0) }
            let bitLength = length &* 8
            for shift in stride(from: 56, through: 0, by: -8) {
                tail.append(UInt8(truncatingIfNeeded: bitLength >> shift))
            }
            tail.withUnsafeBytes { compress($0) }
            pending.removeAll()
            return state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * $0)) } }
        }

        /// Compresses the whole 64-byte blocks of `buffer` into the state.
        private mutating func compress(_ buffer: UnsafeRawBufferPointer) {
            guard buffer.count >= 64 else { return }
            let instructions: Int32 = usingInstructions ? 1 : 0
            state.withUnsafeMutableBufferPointer {
                _ = wsd_sha256_compress($0.baseAddress, buffer.baseAddress, buffer.count / 64, instructions)
            }
        }
    }
}
