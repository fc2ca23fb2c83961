import CChecksum
import Foundation

/// SHA-256 (FIPS 180-4) of a byte buffer, for the identities StateStore records: the import marker's `sha256` (which
/// bytes were imported, so that a later start can tell the same legacy file from a new one) and the history
/// manifest's (what `verifyHistory()` and `workspaced check` compare). An identity, not a secret or a signature. Written here so that a program using StateStore compiles
/// no crypto library for it (swift-crypto brings BoringSSL: 366 of 551 build steps of a StateStore-only package).
/// Checked against FIPS 180-4's examples and, for every length from 0 to 1,024 bytes, against swift-crypto
/// (SHA256Tests).
package enum SHA256Digest {
    /// The round constants: the first 32 bits of the fractional parts of the cube roots of the first 64 primes.
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// The initial hash value: the first 32 bits of the fractional parts of the square roots of the first 8 primes.
    private static let initialHash: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]

    /// The 32-byte digest of `bytes`.
    ///
    /// The whole 64-byte blocks are read where the bytes are; only the last, padded block or two are copied, so
    /// that hashing a file of many megabytes (a history snapshot) holds no second copy of it.
    ///
    /// The blocks are compressed by the processor's SHA extensions where it has them (Sources/CChecksum/sha256.c),
    /// in Swift otherwise or when `usingInstructions` is false (the tests compare the two).
    package static func hash(_ bytes: Data, usingInstructions: Bool = true) -> [UInt8] {
        var hash = initialHash
        var schedule = [UInt32](repeating: 0, count: 64)
        func compressBlocks(_ buffer: UnsafeRawBufferPointer) {
            let count = buffer.count / 64
            if usingInstructions, count > 0,
                hash.withUnsafeMutableBufferPointer({ wsd_sha256_compress($0.baseAddress, buffer.baseAddress, count) })
                    == 1
            {
                return
            }
            for block in 0..<count {
                compress(UnsafeRawBufferPointer(rebasing: buffer[(block * 64)..<(block * 64 + 64)]), &hash, &schedule)
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

    /// Folds one 64-byte block into `hash`; `schedule` is the 64-word message schedule, reused across blocks.
    private static func compress(_ block: UnsafeRawBufferPointer, _ hash: inout [UInt32], _ schedule: inout [UInt32]) {
        for index in 0..<16 {
            let offset = index * 4
            schedule[index] =
                UInt32(block[offset]) << 24 | UInt32(block[offset + 1]) << 16 | UInt32(block[offset + 2]) << 8
                | UInt32(block[offset + 3])
        }
        for index in 16..<64 {
            let early = schedule[index - 15]
            let late = schedule[index - 2]
            let sigma0 = rotateRight(early, 7) ^ rotateRight(early, 18) ^ (early >> 3)
            let sigma1 = rotateRight(late, 17) ^ rotateRight(late, 19) ^ (late >> 10)
            schedule[index] = schedule[index - 16] &+ sigma0 &+ schedule[index - 7] &+ sigma1
        }
        var (a, b, c, d, e, f, g, h) = (hash[0], hash[1], hash[2], hash[3], hash[4], hash[5], hash[6], hash[7])
        for index in 0..<64 {
            let sum1 = rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25)
            let choice = (e & f) ^ (~e & g)
            let temp1 = h &+ sum1 &+ choice &+ roundConstants[index] &+ schedule[index]
            let sum0 = rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let temp2 = sum0 &+ majority
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ temp1, c, b, a, temp1 &+ temp2)
        }
        hash[0] = hash[0] &+ a
        hash[1] = hash[1] &+ b
        hash[2] = hash[2] &+ c
        hash[3] = hash[3] &+ d
        hash[4] = hash[4] &+ e
        hash[5] = hash[5] &+ f
        hash[6] = hash[6] &+ g
        hash[7] = hash[7] &+ h
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

    private static func rotateRight(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value >> count) | (value << (32 - count))
    }
}
