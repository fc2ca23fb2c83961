import Foundation
import Testing

@testable import WorkspaceSecrets

/// The hand-rolled base64url decoder the token check uses on every request, against Foundation's encoder.
@Suite("Base64URL")
struct Base64URLTests {
    @Test func everyLengthRoundTripsThroughFoundationsEncoding() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let standard = Data(bytes).base64EncodedString()
            let url = standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(bytes) == url)
            #expect(Base64URL.decode(url) == bytes, "length \(length)")
        }
    }

    @Test(arguments: ["a", "abcde", "ab+c", "ab/c", "ab=c", "ab c", "é", "AB"])
    func textThatNoEncoderWritesIsRefused(text: String) {
        // "AB" has non-zero leftover bits ("AA" is the canonical encoding of one zero byte).
        #expect(Base64URL.decode(text) == nil)
    }
}
