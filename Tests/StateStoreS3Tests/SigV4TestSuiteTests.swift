import Foundation
import StateStoreS3
import Testing

/// The AWS Signature Version 4 test suite (Fixtures/aws4_testsuite, as botocore ships it; Apache 2.0, see its
/// LICENSE and NOTICE): for every request, the canonical request, the string to sign and the `Authorization`
/// header the suite publishes. All 34 cases, also the four botocore skips (a space in the path, repeated query
/// parameters), which this signer supports.
@Suite("SigV4: the AWS test suite")
struct SigV4TestSuiteTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/aws4_testsuite")
    static let date = Date(timeIntervalSince1970: 1_440_938_160)  // 2015-08-30T12:36:00Z

    /// Every directory holding a `.req`, relative to the suite's.
    static let cases: [String] = {
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".req") { found.append((path as NSString).deletingLastPathComponent) }
        }
        return found.sorted()
    }()

    @Test func theSuiteIsThere() {
        #expect(Self.cases.count == 34, "\(Self.cases)")
    }

    @Test(arguments: cases)
    func signsAsTheSuiteSays(name: String) throws {
        let base = Self.directory.appendingPathComponent(name)
            .appendingPathComponent((name as NSString).lastPathComponent).path
        func read(_ suffix: String) throws -> String {
            try String(contentsOfFile: base + suffix, encoding: .utf8).replacingOccurrences(of: "\r", with: "")
        }
        let expectedCanonical = try read(".creq")
        // As botocore's harness: the session token is the one the canonical request signs, if any.
        let token = expectedCanonical.split(separator: "\n").first { $0.hasPrefix("x-amz-security-token:") }
            .map { String($0.dropFirst("x-amz-security-token:".count)) }
        let signer = SigV4Signer(
            credentials: SigV4Credentials(
                accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
                sessionToken: token),
            region: "us-east-1", service: "service")
        var request = try RawRequest.parse(try read(".req"))
        #expect(signer.canonicalRequest(signedCopy(request, signer)) == expectedCanonical)
        #expect(
            signer.stringToSign(signer.canonicalRequest(signedCopy(request, signer)), at: Self.date)
                == (try read(".sts")))
        signer.sign(&request, at: Self.date)
        #expect(request.header("Authorization") == (try read(".authz")))
    }

    /// `request` with the headers `sign` adds before it signs (the date, the token), without `Authorization`.
    func signedCopy(_ request: SigV4Request, _ signer: SigV4Signer) -> SigV4Request {
        var copy = request
        signer.sign(&copy, at: Self.date)
        copy.headers.removeAll { $0.name.lowercased() == "authorization" }
        return copy
    }
}

/// A raw HTTP/1.1 request as the suite writes it: `METHOD PATH HTTP/1.1`, `Name:value` lines (a line that starts
/// with white space continues the value before), a blank line, the body.
enum RawRequest {
    static func parse(_ text: String) throws -> SigV4Request {
        let (head, body) =
            text.range(of: "\n\n").map { (String(text[..<$0.lowerBound]), String(text[$0.upperBound...])) }
            ?? (text, "")
        var lines = head.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let requestLine = lines.removeFirst()
        guard let firstSpace = requestLine.firstIndex(of: " "), let lastSpace = requestLine.lastIndex(of: " ") else {
            throw ParseError(line: requestLine)
        }
        let method = String(requestLine[..<firstSpace])
        let target = String(requestLine[requestLine.index(after: firstSpace)..<lastSpace])
        var headers: [(name: String, value: String)] = []
        for line in lines where !line.isEmpty {
            if line.first == " " || line.first == "\t", !headers.isEmpty {
                headers[headers.count - 1].value += "\n" + line
            } else if let colon = line.firstIndex(of: ":") {
                headers.append((String(line[..<colon]), String(line[line.index(after: colon)...])))
            } else {
                throw ParseError(line: line)
            }
        }
        let (path, query) =
            target.firstIndex(of: "?").map { (String(target[..<$0]), String(target[target.index(after: $0)...])) }
            ?? (target, "")
        let parameters = query.split(separator: "&").map { pair -> (name: String, value: String) in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (part: Substring) in String(part).removingPercentEncoding ?? String(part) }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
        return SigV4Request(
            method: method, path: path, query: parameters, headers: headers,
            payloadHash: SigV4Signer.payloadHash(Array(body.utf8)))
    }

    struct ParseError: Error {
        var line: String
    }
}
