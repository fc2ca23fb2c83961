import Crypto
import Foundation
import StateStore
import TestSupport
import Testing

/// StateStore's own SHA-256 (the import marker's, the history manifest's) against FIPS 180-4's examples and
/// against swift-crypto's.
@Suite("StateStore's SHA-256", .heavy)
struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrst"
                + "nopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func fipsExamples(message: String, digest: String) {
        #expect(SHA256Digest.hex(Data(message.utf8)) == digest)
    }

    @Test func aMillionAs() {
        let digest = SHA256Digest.hex(Data(repeating: UInt8(ascii: "a"), count: 1_000_000))
        #expect(digest == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Every padding case (a length of 55, 56 and 64 mod 64 among them) on bytes of every value.
    @Test func agreesWithSwiftCryptoForEveryLengthUpTo1024Bytes() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...1024 {
            let bytes = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let expected = Crypto.SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
            #expect(SHA256Digest.hex(bytes) == expected, "length \(length)")
            #expect(
                SHA256Digest.hash(bytes, usingInstructions: false) == Array(Crypto.SHA256.hash(data: bytes)),
                "length \(length), in Swift")
        }
    }

    /// Blocks are read where the bytes are: a slice that starts inside a larger buffer, and megabytes (a history
    /// snapshot's size), give swift-crypto's digest.
    @Test func agreesWithSwiftCryptoOnSlicesAndMegabytes() {
        var generator = SystemRandomNumberGenerator()
        let whole = Data((0..<(3 << 20) + 77).map { _ in UInt8.random(in: 0...255, using: &generator) })
        for bytes in [whole, whole[13...], whole[1..<(1 << 20) + 1], whole[64..<64]] {
            let expected = Crypto.SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
            #expect(SHA256Digest.hex(bytes) == expected, "\(bytes.startIndex)..<\(bytes.endIndex)")
            #expect(
                SHA256Digest.hash(bytes, usingInstructions: false) == Array(Crypto.SHA256.hash(data: bytes)),
                "\(bytes.startIndex)..<\(bytes.endIndex), in Swift")
        }
    }

    /// A message given in pieces of every size from 1 to 130 bytes (pieces that end inside a block, on its end,
    /// and past the next) and of a megabyte (a fingerprint's) gives the digest of the whole.
    @Test func piecesGiveTheDigestOfTheWhole() {
        var generator = SystemRandomNumberGenerator()
        let whole = Data((0..<(2 << 20) + 201).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let expected = Array(Crypto.SHA256.hash(data: whole))
        for pieceSize in Array(1...130) + [1 << 20] {
            let bytes = pieceSize < 64 ? whole[0..<4_099] : whole
            var hasher = SHA256Digest.Hasher()
            bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let end = min(offset + pieceSize, buffer.count)
                    hasher.update(UnsafeRawBufferPointer(rebasing: buffer[offset..<end]))
                    offset = end
                }
            }
            let want = pieceSize < 64 ? Array(Crypto.SHA256.hash(data: bytes)) : expected
            #expect(hasher.finish() == want, "pieces of \(pieceSize) bytes")
        }
    }
}
