import Foundation
import StateStoreS3
import Testing

/// What S3 adds to the suite's rules: object keys signed as they are (no path normalization), the payload's hash
/// in `X-Amz-Content-Sha256`, and the example of S3's documentation ("Signature Calculations for the Authorization
/// Header", GET Object).
@Suite("SigV4: S3")
struct SigV4S3Tests {
    static let credentials = SigV4Credentials(
        accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
    static let date = Date(timeIntervalSince1970: 1_369_353_600)  // 2013-05-24T00:00:00Z

    @Test func theDocumentationsGetObjectExample() {
        let signer = SigV4Signer(credentials: Self.credentials, region: "us-east-1")
        var request = SigV4Request(
            method: "GET", path: "/test.txt",
            headers: [("Host", "examplebucket.s3.amazonaws.com"), ("Range", "bytes=0-9")],
            payloadHash: SigV4Signer.emptyPayloadHash)
        signer.sign(&request, at: Self.date)
        #expect(request.header("X-Amz-Date") == "20130524T000000Z")
        #expect(request.header("X-Amz-Content-Sha256") == SigV4Signer.emptyPayloadHash)
        #expect(
            request.header("Authorization")
                == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
                + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
    }

    @Test func objectKeysAreSignedAsTheyAre() {
        let s3 = SigV4Signer(credentials: Self.credentials, region: "us-east-1")
        let other = SigV4Signer(credentials: Self.credentials, region: "us-east-1", service: "service")
        let request = SigV4Request(
            method: "PUT", path: "/bucket/a//b/./c d/é", headers: [("Host", "h")],
            payloadHash: SigV4Signer.unsignedPayload)
        #expect(s3.canonicalRequest(request).split(separator: "\n")[1] == "/bucket/a//b/./c%20d/%C3%A9")
        #expect(other.canonicalRequest(request).split(separator: "\n")[1] == "/bucket/a/b/c%20d/%C3%A9")
    }

    @Test func aSessionTokenIsSentAndSignedAndTheSecretNeverPrinted() {
        var credentials = Self.credentials
        credentials.sessionToken = "token/with+chars"
        var request = SigV4Request(method: "GET", path: "/", headers: [("Host", "h")], payloadHash: "x")
        SigV4Signer(credentials: credentials, region: "eu-west-3").sign(&request, at: Self.date)
        #expect(request.header("X-Amz-Security-Token") == "token/with+chars")
        #expect(request.header("Authorization")?.contains("x-amz-security-token") == true)
        #expect(request.header("Authorization")?.contains("/20130524/eu-west-3/s3/aws4_request") == true)
        #expect(!"\(credentials)".contains("EXAMPLEKEY") && !"\(credentials)".contains("token/with"))
    }

    @Test func signingTwiceReplacesWhatTheFirstAdded() {
        let signer = SigV4Signer(credentials: Self.credentials, region: "us-east-1")
        var request = SigV4Request(method: "GET", path: "/k", headers: [("Host", "h")], payloadHash: "x")
        signer.sign(&request, at: Self.date)
        let once = request
        signer.sign(&request, at: Self.date)
        #expect(request == once)
        signer.sign(&request, at: Self.date.addingTimeInterval(86_400))
        #expect(request.header("X-Amz-Date") == "20130525T000000Z")
        #expect(request.headers.filter { $0.name == "Authorization" }.count == 1)
    }
}
