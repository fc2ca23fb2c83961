import Crypto
import FoundationEssentials
import StateStore

/// Signs HTTP requests with AWS Signature Version 4 (header authentication), as S3 and every S3-compatible store
/// (MinIO, Ceph RGW, Garage, R2) check them: the canonical request's SHA-256, signed with a key derived from the
/// secret, the date, the region and the service by HMAC-SHA256.
///
/// Checked against the AWS Signature Version 4 test suite (Tests/StateStoreS3Tests/Fixtures/aws4_testsuite, from
/// botocore) and S3's published example.
///
/// ```swift
/// let signer = SigV4Signer(credentials: credentials, region: "us-east-1", service: "s3")
/// var request = SigV4Request(method: "GET", path: "/bucket/manifest.json",
///                            headers: [("Host", "s3.amazonaws.com")], payloadHash: SigV4Signer.emptyPayloadHash)
/// signer.sign(&request, at: Date())   // adds X-Amz-Date, X-Amz-Content-Sha256 and Authorization
/// ```
public struct SigV4Signer: Sendable {
    /// The SHA-256 of an empty payload, the hash of every request without a body.
    public static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    /// The payload hash of a request whose body is not signed (S3 only; TLS protects it).
    public static let unsignedPayload = "UNSIGNED-PAYLOAD"

    /// The credentials requests are signed with.
    public var credentials: SigV4Credentials
    /// The region (`us-east-1`; what the store was configured with for anything but AWS).
    public var region: String
    /// The service (`s3`).
    public var service: String

    /// A signer for `service` in `region` with `credentials`.
    public init(credentials: SigV4Credentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// Whether the service is S3, whose paths are object keys signed as they are, and which wants the payload's
    /// hash in `X-Amz-Content-Sha256`.
    var isS3: Bool { service == "s3" }

    /// The lower-case hex SHA-256 of `payload`, for ``SigV4Request/payloadHash``.
    public static func payloadHash(_ payload: some DataProtocol) -> String {
        SHA256Digest.hex(digest: Array(SHA256.hash(data: payload)))
    }

    /// Signs `request` as of `date`: sets `X-Amz-Date`, `X-Amz-Security-Token` for temporary credentials,
    /// `X-Amz-Content-Sha256` for S3, then `Authorization`. The request must hold its `Host` header.
    public func sign(_ request: inout SigV4Request, at date: Date) {
        request.setHeader("X-Amz-Date", Self.timestamp(date))
        if let token = credentials.sessionToken { request.setHeader("X-Amz-Security-Token", token) }
        if isS3 { request.setHeader("X-Amz-Content-Sha256", request.payloadHash) }
        request.headers.removeAll { $0.name.lowercased() == "authorization" }
        request.setHeader("Authorization", authorization(request, at: date))
    }

    /// The `Authorization` header's value for `request` as it is (its `X-Amz-Date` already `date`).
    public func authorization(_ request: SigV4Request, at date: Date) -> String {
        let signedHeaders = SigV4Canonical.headers(request.headers).signed
        let signature = signature(stringToSign: stringToSign(canonicalRequest(request), at: date), at: date)
        return "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope(date)), "
            + "SignedHeaders=\(signedHeaders), Signature=\(signature)"
    }

    /// The canonical request: method, URI, query, headers, signed headers and payload hash, one per line.
    public func canonicalRequest(_ request: SigV4Request) -> String {
        let headers = SigV4Canonical.headers(request.headers)
        return [
            request.method, SigV4Canonical.uri(request.path, normalizing: !isS3), SigV4Canonical.query(request.query),
            headers.canonical, headers.signed, request.payloadHash,
        ].joined(separator: "\n")
    }

    /// The string to sign: the algorithm, the timestamp, the scope and the canonical request's SHA-256.
    public func stringToSign(_ canonicalRequest: String, at date: Date) -> String {
        [
            "AWS4-HMAC-SHA256", Self.timestamp(date), scope(date),
            Self.payloadHash(Array(canonicalRequest.utf8)),
        ].joined(separator: "\n")
    }

    /// The signature of `stringToSign`: HMAC-SHA256 with the key derived for the date, region and service.
    public func signature(stringToSign: String, at date: Date) -> String {
        var key = SymmetricKey(data: Array(("AWS4" + credentials.secretAccessKey).utf8))
        for part in [Self.day(date), region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Array(part.utf8), using: key)))
        }
        let code = HMAC<SHA256>.authenticationCode(for: Array(stringToSign.utf8), using: key)
        return SHA256Digest.hex(digest: Array(code))
    }

    /// `day/region/service/aws4_request`.
    func scope(_ date: Date) -> String { "\(Self.day(date))/\(region)/\(service)/aws4_request" }

    /// `yyyyMMdd'T'HHmmss'Z'` in UTC.
    static func timestamp(_ date: Date) -> String {
        UTCTimestamp.compact(date)
    }

    /// `yyyyMMdd` in UTC.
    static func day(_ date: Date) -> String { String(timestamp(date).prefix(8)) }
}
