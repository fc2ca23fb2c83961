import AsyncHTTPClient
import Crypto
import FoundationEssentials
import NIOCore
import NIOHTTP1
import StateStore

/// A replica in an S3-compatible object store (AWS S3, MinIO, Ceph RGW, Garage, R2…), as a ``ReplicaTarget``.
///
/// Each object is one `PUT` with its SHA-256 signed (`x-amz-content-sha256`) and given as a checksum
/// (`x-amz-checksum-sha256`), so a store that received other bytes refuses them and a partial upload never becomes
/// an object. ``create(_:bytes:)`` sends `If-None-Match: *` and ``replace(_:bytes:ifVersion:)`` `If-Match` (or
/// `If-None-Match: *`): the store decides, so two hosts never both write a name. A version is the ETag. Requests
/// are signed with Signature Version 4 (``SigV4Signer``) and block the calling thread until the store answers or
/// ``S3ReplicaConfiguration/requestTimeout`` passes: call them from a queue, never an event loop.
public final class S3ReplicaTarget: ReplicaTarget {
    /// The configuration.
    public let configuration: S3ReplicaConfiguration
    private let client: HTTPClient
    private let ownsClient: Bool
    private let signer: SigV4Signer

    /// A target at `configuration`'s bucket and prefix, over `httpClient` (one of its own when `nil`, shut down by
    /// ``shutdown()``).
    public init(configuration: S3ReplicaConfiguration, httpClient: HTTPClient? = nil) {
        self.configuration = configuration
        self.signer = SigV4Signer(credentials: configuration.credentials, region: configuration.region)
        if let httpClient {
            client = httpClient
            ownsClient = false
        } else {
            var clientConfiguration = HTTPClient.Configuration()
            let timeout = TimeAmount.nanoseconds(Int64(Self.seconds(configuration.requestTimeout) * 1e9))
            let connect = TimeAmount.nanoseconds(Int64(Self.seconds(configuration.connectTimeout) * 1e9))
            clientConfiguration.timeout = HTTPClient.Configuration.Timeout(connect: connect, read: timeout)
            client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: clientConfiguration)
            ownsClient = true
        }
    }

    /// Shuts down the HTTP client the target created; does nothing for one it was given.
    public func shutdown() {
        if ownsClient { try? client.syncShutdown() }
    }

    /// `PUT` with `If-None-Match: *`; on `412 Precondition Failed`, reads the object to say whether it holds
    /// the same bytes (see ``ReplicaTarget/create(_:bytes:)``).
    public func create(_ name: ReplicaObjectName, bytes: Data) throws(ReplicaError) -> ReplicaCreation {
        let operation = "create \(describe(name))"
        let response = try send("PUT", key: name.rawValue, body: bytes, headers: [("If-None-Match", "*")], operation)
        switch response.status {
        case 200..<300:
            return .created
        case 412, 409:
            // 409: a conditional write racing another on the same name; either way the name is taken now or soon.
            guard let existing = try read(name) else {
                throw ReplicaError(operation: operation, reason: "the store refused the write, but holds no object")
            }
            return existing.bytes == bytes ? .existedWithTheSameBytes : .existedWithOtherBytes
        default:
            throw failure(operation, response)
        }
    }

    /// `GET`; the ETag is the version.
    public func read(_ name: ReplicaObjectName) throws(ReplicaError) -> (bytes: Data, version: ReplicaObjectVersion)? {
        let operation = "read \(describe(name))"
        let response = try send("GET", key: name.rawValue, operation)
        switch response.status {
        case 200:
            guard let etag = response.headers.first(name: "ETag") else {
                throw ReplicaError(operation: operation, reason: "the store answered without an ETag")
            }
            return (response.body, ReplicaObjectVersion(etag))
        case 404 where !Self.isMissingBucket(response):
            return nil
        default:
            throw failure(operation, response)
        }
    }

    /// `ListObjectsV2`, every page.
    public func list(prefix: String) throws(ReplicaError) -> [ReplicaObject] {
        let operation = "list \(configuration.bucket)/\(configuration.prefix)\(prefix)"
        var objects: [ReplicaObject] = []
        var token: String?
        repeat {
            var query = [("list-type", "2"), ("prefix", configuration.prefix + prefix)]
            if let size = configuration.listPageSize { query.append(("max-keys", String(size))) }
            if let token { query.append(("continuation-token", token)) }
            let response = try send("GET", key: nil, query: query, operation)
            guard response.status == 200 else { throw failure(operation, response) }
            let page = S3ListPage(xml: response.body)
            for entry in page.contents {
                guard entry.key.hasPrefix(configuration.prefix),
                    let name = ReplicaObjectName(String(entry.key.dropFirst(configuration.prefix.count)))
                else { continue }
                objects.append(ReplicaObject(name: name, byteCount: entry.size))
            }
            token = page.isTruncated ? page.nextContinuationToken : nil
        } while token != nil
        return objects.sorted { $0.name < $1.name }
    }

    /// `PUT` with `If-Match: <version>`, or `If-None-Match: *` without one; `412` (or `404` for a version of an
    /// object since removed) is `nil`.
    public func replace(
        _ name: ReplicaObjectName, bytes: Data, ifVersion expected: ReplicaObjectVersion?
    ) throws(ReplicaError) -> ReplicaObjectVersion? {
        let operation = "replace \(describe(name))"
        let condition = expected.map { ("If-Match", $0.rawValue) } ?? ("If-None-Match", "*")
        let response = try send("PUT", key: name.rawValue, body: bytes, headers: [condition], operation)
        switch response.status {
        case 200..<300:
            guard let etag = response.headers.first(name: "ETag") else {
                throw ReplicaError(operation: operation, reason: "the store answered without an ETag")
            }
            return ReplicaObjectVersion(etag)
        case 412, 409:
            return nil
        case 404 where !Self.isMissingBucket(response):
            return nil
        default:
            throw failure(operation, response)
        }
    }

    /// `DELETE`; a missing object is not an error.
    public func remove(_ name: ReplicaObjectName) throws(ReplicaError) {
        let operation = "remove \(describe(name))"
        let response = try send("DELETE", key: name.rawValue, operation)
        guard (200..<300).contains(response.status) || (response.status == 404 && !Self.isMissingBucket(response))
        else {
            throw failure(operation, response)
        }
    }

    /// Creates the bucket (`PUT /<bucket>`); one that exists and is this account's is not an error. For tests,
    /// benchmarks and set-up tools: a replicator never creates its bucket, whose policy is the operator's.
    ///
    /// - Throws: ``ReplicaError`` when the store refuses.
    public func createBucket() throws(ReplicaError) {
        let operation = "create the bucket \(configuration.bucket)"
        let response = try send("PUT", key: nil, body: Data(), operation)
        guard (200..<300).contains(response.status) || S3ErrorBody(xml: response.body).code == "BucketAlreadyOwnedByYou"
        else { throw failure(operation, response) }
    }

    /// What the store answered.
    typealias Answer = S3ResponseCollector.Answer

    /// Signs and sends one request, and waits for the whole answer.
    private func send(
        _ method: String, key: String?, query: [(String, String)] = [], body: Data? = nil,
        headers extra: [(String, String)] = [], _ operation: String
    ) throws(ReplicaError) -> Answer {
        let path = "/" + configuration.bucket + (key.map { "/" + configuration.prefix + $0 } ?? "")
        let endpoint = configuration.endpoint
        var host = endpoint.host ?? ""
        if let port = endpoint.port { host += ":\(port)" }
        var request = SigV4Request(
            method: method, path: path, query: query.map { (name: $0.0, value: $0.1) },
            headers: [("Host", host)] + extra.map { (name: $0.0, value: $0.1) },
            payloadHash: SigV4Signer.payloadHash(body ?? Data()))
        if let body {
            request.setHeader("Content-Length", String(body.count))
            request.setHeader("x-amz-checksum-sha256", Data(SHA256.hash(data: body)).base64EncodedString())
        }
        signer.sign(&request, at: Date())
        let base =
            endpoint.absoluteString.hasSuffix("/")
            ? String(endpoint.absoluteString.dropLast()) : endpoint.absoluteString
        var url = base + SigV4Canonical.encode(path, keepingSlashes: true)
        if !query.isEmpty {
            url +=
                "?"
                + query.map { SigV4Canonical.encode($0.0) + "=" + SigV4Canonical.encode($0.1) }.joined(separator: "&")
        }
        do {
            var httpRequest = try HTTPClient.Request(url: url, method: HTTPMethod(rawValue: method))
            for header in request.headers where header.name.lowercased() != "content-length" {
                httpRequest.headers.replaceOrAdd(name: header.name, value: header.value)
            }
            if let body { httpRequest.body = .bytes(body) }
            let deadline = NIODeadline.now() + .nanoseconds(Int64(Self.seconds(configuration.requestTimeout) * 1e9))
            let collector = S3ResponseCollector(method: method)
            return try client.execute(request: httpRequest, delegate: collector, deadline: deadline).wait()
        } catch {
            throw ReplicaError(operation: operation, reason: "\(error)")
        }
    }

    /// The error of an answer the operation does not expect: its status and the store's code and message.
    private func failure(_ operation: String, _ answer: Answer) -> ReplicaError {
        let error = S3ErrorBody(xml: answer.body)
        var reason = "the store answered \(answer.status)"
        if let code = error.code { reason += " \(code)" }
        if let message = error.message { reason += ": \(message)" }
        return ReplicaError(operation: operation, reason: reason)
    }

    /// Whether a 404 says the bucket is missing (an error to report), not the object (an answer).
    private static func isMissingBucket(_ answer: Answer) -> Bool {
        S3ErrorBody(xml: answer.body).code == "NoSuchBucket"
    }

    private func describe(_ name: ReplicaObjectName) -> String {
        "s3://\(configuration.bucket)/\(configuration.prefix)\(name)"
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
