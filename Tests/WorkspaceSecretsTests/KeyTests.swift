import Foundation
import Testing

@testable import WorkspaceSecrets

@Suite("The secrets key: raw or base64, 32 bytes, and its id")
struct KeyTests {
    static let raw = (0..<32).map { UInt8($0 * 7 % 256) }

    @Test func exactly32RawBytesAreAKey() throws {
        let key = try SecretsKey.parse(Self.raw, source: "test")
        #expect(key.bytes == Self.raw)
    }

    @Test func base64TextOf32BytesIsAKeyWithWhitespaceTrimmed() throws {
        let text = "  " + Data(Self.raw).base64EncodedString() + "\n\n"
        let key = try SecretsKey.parse(Array(text.utf8), source: "test")
        #expect(key.bytes == Self.raw)
        let windows = "\t" + Data(Self.raw).base64EncodedString() + "\r\n"
        #expect(try SecretsKey.parse(Array(windows.utf8), source: "test") == key, "tabs and CRLF are white space too")
        #expect(try SecretsKey.parse(Array(key.fileContents), source: "test") == key, "a key file reads back")
    }

    @Test func anythingElseIsAClearError() {
        #expect(throws: SecretsKeyError.notBase64(source: "c", byteCount: 31)) {
            try SecretsKey.parse(Array(Self.raw.prefix(31)), source: "c")
        }
        #expect(throws: SecretsKeyError.wrongLength(source: "c (base64)", byteCount: 16)) {
            try SecretsKey.parse(Array(Data(Self.raw.prefix(16)).base64EncodedString().utf8), source: "c")
        }
        #expect(throws: SecretsKeyError.notBase64(source: "c", byteCount: 14)) {
            try SecretsKey.parse(Array("not a key at all".utf8.prefix(14)), source: "c")
        }
        #expect(throws: SecretsKeyError.empty(source: "c")) { try SecretsKey.parse(Array(" \n".utf8), source: "c") }
        #expect(SecretsKeyError.empty(source: "credential secrets-key").description.contains("/dev/urandom"))
    }

    @Test func theIDIs16HexDigitsStablePerKeyAndNotTheKey() throws {
        let key = try SecretsKey(bytes: Self.raw)
        #expect(key.id.count == 16 && key.id.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        #expect(try SecretsKey(bytes: Self.raw).id == key.id)
        #expect(SecretsKey.generate().id != key.id)
        #expect(!Data(Self.raw).base64EncodedString().contains(key.id))
        #expect(Hex.encode(Self.raw.prefix(8)) != key.id)
    }

    @Test func generatedKeysAreRandom() {
        let keys = (0..<16).map { _ in SecretsKey.generate().bytes }
        #expect(Set(keys).count == 16)
    }
}
