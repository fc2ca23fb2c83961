import Foundation
import TestSupport
import Testing

@testable import WorkspaceSecrets

@Suite("Token format, parsing and the constant-time compare")
struct TokenFormatTests {
    @Test func aTokenIsPrefixIDAndBase64URLSecretAndParsesBack() throws {
        let token = BearerToken.generate()
        let text = token.text
        #expect(text.wholeMatch(of: #/wsd_[0-9a-f]{12}_[A-Za-z0-9_-]{43}/#) != nil, "\(text.count) characters")
        #expect(BearerToken.parse(text) == .token(token))
        #expect(token.secretHashHex.count == 64)
        #expect(token.secretHashHex == Hex.encode(token.secretHash))
    }

    @Test func tokensAreRandom() {
        var ids = Set<String>()
        var secrets = Set<[UInt8]>()
        for _ in 0..<64 {
            let token = BearerToken.generate()
            ids.insert(token.id)
            secrets.insert(token.secret)
        }
        #expect(ids.count == 64 && secrets.count == 64)
    }

    @Test func theDescriptionNamesTheIDAndNeverTheSecret() {
        var generator = SplitMix64(seed: 1)
        let token = BearerToken.generate(using: &generator)
        let secretPart = String(token.text.dropFirst(17))
        #expect("\(token)" == "token \(token.id)")
        #expect(!"\(token)".contains(secretPart))
        #expect(String(reflecting: token) == "token \(token.id)")
        #expect(
            "\(TokenAuthentication.wrongSecret(id: token.id))" == "token \(token.id) was presented with a wrong secret")
    }

    @Test(
        arguments: [
            ("", nil), ("Bearer", nil), ("wsd_", nil), ("wsd_0123456789ab", "0123456789ab"),
            ("wsd_0123456789AB_" + String(repeating: "A", count: 43), nil),
            ("wsd_0123456789ab_" + String(repeating: "A", count: 42), "0123456789ab"),
            ("wsd_0123456789ab_" + String(repeating: "A", count: 44), "0123456789ab"),
            ("wsd_0123456789ab_" + String(repeating: "+", count: 43), "0123456789ab"),
            ("wsd_0123456789ab-" + String(repeating: "A", count: 43), "0123456789ab"),
            ("xyz_0123456789ab_" + String(repeating: "A", count: 43), nil),
        ] as [(String, String?)])
    func malformedTokensNameTheirIDWhenTheyHaveOne(text: String, id: String?) {
        #expect(BearerToken.parse(text) == .malformed(id: id))
    }

    @Test func constantTimeCompareIsAnEqualityOfBytes() {
        let a = (0..<32).map { UInt8($0) }
        #expect(ConstantTime.equal(a, a))
        #expect(ConstantTime.equal([], []))
        for index in [0, 15, 31] {
            var b = a
            b[index] ^= 0x40
            #expect(!ConstantTime.equal(a, b), "a difference at byte \(index)")
        }
        #expect(!ConstantTime.equal(a, Array(a.dropLast())))
        #expect(!ConstantTime.equal(a, a + [0]))
    }

    @Test func idsAreTwelveLowerCaseHexDigits() {
        #expect(BearerToken.isValidID("0123456789ab"))
        #expect(!BearerToken.isValidID("0123456789AB"))
        #expect(!BearerToken.isValidID("0123456789a"))
        #expect(!BearerToken.isValidID("0123456789abc"))
    }
}
