import Foundation
import Testing

@testable import WorkspaceSecrets

@Suite("AES-256-GCM sealing of the store")
struct SealingTests {
    let key = SecretsKey.generate()
    let plaintext = Data(#"{"installation":{},"version":2}"#.utf8)

    func sealed() throws -> Data { try SecretsSealing(key: key).seal(plaintext) }

    func openError(_ stored: Data, with key: SecretsKey? = nil) -> SecretsSealingError? {
        do {
            _ = try SecretsSealing(key: key ?? self.key).open(stored)
            return nil
        } catch {
            return error as? SecretsSealingError
        }
    }

    /// The envelope as a mutable object.
    func envelope(_ stored: Data) throws -> [String: String] {
        try #require(try JSONSerialization.jsonObject(with: stored) as? [String: String])
    }

    func encode(_ object: [String: String]) throws -> Data {
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    @Test func whatIsSealedOpensAndIsAnEnvelopeNamingFormatCipherAndKey() throws {
        let stored = try sealed()
        #expect(try SecretsSealing(key: key).open(stored) == plaintext)
        let object = try envelope(stored)
        #expect(Set(object.keys) == ["format", "cipher", "keyId", "sealed"])
        #expect(object["format"] == "workspaced-secrets" && object["cipher"] == "AES-256-GCM")
        #expect(object["keyId"] == key.id)
        #expect(!String(decoding: stored, as: UTF8.self).contains("installation"), "the JSON is not in clear")
        #expect(SecretsSealing.keyID(of: stored) == key.id)
    }

    @Test func everySealUsesAFreshNonce() throws {
        #expect(try sealed() != (try sealed()))
    }

    @Test func anotherKeyIsAWrongKeyNamingBothIDs() throws {
        let other = SecretsKey.generate()
        #expect(openError(try sealed(), with: other) == .wrongKey(fileKeyID: key.id, keyID: other.id))
        #expect(SecretsSealingError.wrongKey(fileKeyID: "a", keyID: "b").description.contains("sealed under key a"))
    }

    @Test func aChangedCiphertextByteIsTampered() throws {
        var object = try envelope(try sealed())
        var bytes = try #require(Data(base64Encoded: object["sealed"]!))
        bytes[20] ^= 0x01
        object["sealed"] = bytes.base64EncodedString()
        #expect(openError(try encode(object)) == .tampered)
    }

    @Test func aChangedTagIsTampered() throws {
        var object = try envelope(try sealed())
        var bytes = try #require(Data(base64Encoded: object["sealed"]!))
        bytes[bytes.count - 1] ^= 0x80
        object["sealed"] = bytes.base64EncodedString()
        #expect(openError(try encode(object)) == .tampered)
    }

    @Test func theKeyIDIsAuthenticatedDataRelabellingAFileIsTampered() throws {
        // A file sealed under `key`, relabelled with the id of `other` and opened with `other`: the labels pass,
        // the authentication does not.
        let other = SecretsKey.generate()
        var object = try envelope(try sealed())
        object["keyId"] = other.id
        #expect(openError(try encode(object), with: other) == .tampered)
    }

    @Test func aTruncatedFileIsNotAnEnvelope() throws {
        let stored = try sealed()
        guard case .notAnEnvelope = openError(stored.prefix(stored.count / 2)) else {
            Issue.record("a truncated file opened or failed otherwise")
            return
        }
        guard case .notAnEnvelope(let reason) = openError(Data()) else {
            Issue.record("an empty file was not refused as not an envelope")
            return
        }
        #expect(reason == "the file is empty")
    }

    /// The pull reader reads what workspaced writes and leaves anything else to `JSONDecoder`, so `parse` gives
    /// what `JSONDecoder` gives for every variant: the same envelope, or the same refusal.
    @Test func theDirectReadAgreesWithJSONDecoder() throws {
        let written = try sealed()
        let envelope = try #require(SealedEnvelope.readDirectly(written))
        #expect(envelope == (try JSONDecoder().decode(SealedEnvelope.self, from: written)))
        #expect(envelope.keyId == key.id && envelope.format == SealedEnvelope.format)
        let members = #""cipher":"AES-256-GCM","format":"workspaced-secrets","keyId":"k","sealed":"c2VhbGVk""#
        let variants: [(text: String, direct: Bool)] = [
            ("{\(members)}", true),
            (" {\n \(members.replacingOccurrences(of: ",", with: " ,\n "))\n}\n", true),
            (#"{"sealed":"\u0073","keyId":"k","format":"workspaced-secrets","cipher":"AES-256-GCM"}"#, true),
            ("{\(members),\"extra\":1}", false),
            ("{\(members),\"keyId\":\"other\"}", false),
            ("{\(members.replacingOccurrences(of: #""k""#, with: "7"))}", false),
            ("{\(members)", false),
            ("{\(members)} []", false),
            ("[\(members)]", false),
            (#"{"format":"workspaced-secrets"}"#, false),
        ]
        for (text, direct) in variants {
            let data = Data(text.utf8)
            let read = SealedEnvelope.readDirectly(data)
            #expect((read != nil) == direct, "\(text)")
            let decoded = Result { try JSONDecoder().decode(SealedEnvelope.self, from: data) }
            switch (Result { () throws(SecretsSealingError) in try SealedEnvelope.parse(data) }, decoded) {
            case (.success(let parsed), .success(let expected)):
                #expect(parsed == expected, "\(text)")
                if let read { #expect(read == expected, "\(text)") }
            case (.failure, .failure): #expect(read == nil, "\(text)")
            case (let parsed, let expected): Issue.record("\(text): parse \(parsed), JSONDecoder \(expected)")
            }
        }
    }

    @Test func plainJSONIsNotAnEnvelopeNamingTheMissingField() throws {
        #expect(openError(plaintext) == .notAnEnvelope(reason: "no \"format\""))
        #expect(openError(Data("[1, 2]".utf8)) != nil)
    }

    @Test func anUnknownFormatOrCipherIsNamed() throws {
        var object = try envelope(try sealed())
        object["format"] = "other-secrets"
        #expect(openError(try encode(object)) == .unknownFormat("other-secrets"))
        object = try envelope(try sealed())
        object["cipher"] = "ChaCha20-Poly1305"
        #expect(openError(try encode(object)) == .unknownCipher("ChaCha20-Poly1305"))
    }

    @Test func sealedDataThatIsNotBase64OrTooShortIsDamaged() throws {
        var object = try envelope(try sealed())
        object["sealed"] = "not base64!"
        #expect(openError(try encode(object)) == .malformedCiphertext(reason: "not base64"))
        object["sealed"] = Data(repeating: 1, count: 20).base64EncodedString()
        guard case .malformedCiphertext = openError(try encode(object)) else {
            Issue.record("20 bytes were not refused as too short")
            return
        }
    }
}
