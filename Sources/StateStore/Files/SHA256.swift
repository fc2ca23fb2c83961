import CChecksum
import Foundation

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
    /// that hashing a file of many megabytes (a history snapshot) holds no second copy of it. The processor's SHA
    /// extensions compress them where it has them, portable C otherwise or when `usingInstructions` is false (the
    /// tests compare the two).
    package static func hash(_ bytes: Data, usingInstructions: Bool = true) -> [UInt8] {
        var hash = initialHash
        func compressBlocks(_ buffer: UnsafeRawBufferPointer) {
            guard buffer.count >= 64 else { return }
            hash.withUnsafeMutableBufferPointer {
                _ = wsd_sha256_compress(
                    $0.baseAddress, buffer.baseAddress, buffer.count / 64, usingInstructions ? 1 : 0)
            }
        }
        let wholeBlocks = bytes.count / 64
        bytes.withUnsafeBytes { buffer in
            compressBlocks(UnsafeRawBufferPointer(rebasing: buffer[0..<(wholeBlocks * 64)]))
        }
        // The rest of the message, a 0x80 byte, zeros up to 56 mod 64, then the length in bits as a big-endian
        // UInt64: one block or two.
        var tail = [UInt8](bytes[(bytes.startIndex + wholeBlocks * 64)...])
        let bitLength = UInt64(bytes.count) &* 8
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bitLength >> shift))
        }
        tail.withUnsafeBytes { compressBlocks($0) }
        return hash.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * $0)) } }
    }

    /// Lowercase hex of the digest of `bytes`, 64 characters.
    package static func hex(_ bytes: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(64)
        for byte in hash(bytes) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
