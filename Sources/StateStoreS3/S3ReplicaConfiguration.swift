import FoundationEssentials
import StateStore

/// Where an ``S3ReplicaTarget`` keeps its objects and how it signs for them.
public struct S3ReplicaConfiguration: Sendable, Equatable {
    /// The service's base URL, `https://s3.<region>.amazonaws.com` for AWS; for anything else (MinIO, Ceph RGW,
    /// Garage, R2) the endpoint its operator gives. Requests are path-style: `<endpoint>/<bucket>/<key>`.
    public var endpoint: URL
    /// The bucket.
    public var bucket: String
    /// The prefix under which the replica's objects are kept: empty, or ending with `/`.
    public var prefix: String
    /// The region requests are signed for (`us-east-1` for most services that are not AWS).
    public var region: String
    /// The access key and secret.
    public var credentials: SigV4Credentials
    /// How long one request may take, connection included, before it fails. Default 30 s.
    public var requestTimeout: Duration
    /// How long a request waits for a connection to the store (the client retries refused connections until
    /// then), so that a store that is down fails a pass in this time, not ``requestTimeout``. Default 3 s.
    public var connectTimeout: Duration
    /// The most keys a listing asks for per page; `nil` for the store's default (1,000 on S3).
    public var listPageSize: Int?

    /// A configuration for `bucket` and `prefix` at `endpoint` (AWS's endpoint for `region` when `nil`).
    public init(
        bucket: String, prefix: String = "", region: String = "us-east-1", endpoint: URL? = nil,
        credentials: SigV4Credentials, requestTimeout: Duration = .seconds(30), connectTimeout: Duration = .seconds(3)
    ) {
        self.connectTimeout = connectTimeout
        self.bucket = bucket
        self.prefix = prefix.isEmpty || prefix.hasSuffix("/") ? prefix : prefix + "/"
        self.region = region
        self.endpoint = endpoint ?? URL(string: "https://s3.\(region).amazonaws.com")!
        self.credentials = credentials
        self.requestTimeout = requestTimeout
    }

    /// The bucket and prefix of an `s3://BUCKET/PREFIX` URL; `nil` when `url` is not one (another scheme, no
    /// bucket, a bucket name S3 refuses, a prefix with characters a replica's names do not use).
    public static func location(of url: String) -> (bucket: String, prefix: String)? {
        guard url.hasPrefix("s3://") else { return nil }
        let rest = url.dropFirst("s3://".count)
        let bucket = String(rest.prefix { $0 != "/" })
        var prefix = String(rest.dropFirst(bucket.count).drop { $0 == "/" })
        guard (3...63).contains(bucket.utf8.count),
            bucket.utf8.allSatisfy({
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (0x30...0x39).contains($0)
                    || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
            }),
            bucket.first != "-", bucket.first != ".", bucket.last != "-", bucket.last != "."
        else { return nil }
        while prefix.hasSuffix("/") { prefix.removeLast() }
        if !prefix.isEmpty {
            guard ReplicaObjectName(prefix) != nil else { return nil }
            prefix += "/"
        }
        return (bucket, prefix)
    }
}
