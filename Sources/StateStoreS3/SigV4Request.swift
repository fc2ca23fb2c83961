/// An HTTP request as Signature Version 4 signs it: its method, its path and query as they mean (not yet
/// percent-encoded: the signer encodes them as the canonical request requires), its headers and its payload's hash.
public struct SigV4Request: Sendable, Equatable {
    /// `GET`, `PUT`, …
    public var method: String
    /// The path, decoded: `/bucket/prefix/snapshot.41.json`.
    public var path: String
    /// The query's parameters, decoded, in any order (a parameter without `=` has the value `""`).
    public var query: [(name: String, value: String)]
    /// The headers, in any order and letter case; a name given twice is signed with its values joined by `,` in
    /// order, as a server folds them.
    public var headers: [(name: String, value: String)]
    /// Lower-case hex SHA-256 of the payload, or `UNSIGNED-PAYLOAD` (S3 only).
    public var payloadHash: String

    /// A request of `method` on `path` with `query`, `headers` and a payload whose hash is `payloadHash`.
    public init(
        method: String, path: String, query: [(name: String, value: String)] = [],
        headers: [(name: String, value: String)] = [], payloadHash: String
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.payloadHash = payloadHash
    }

    /// The first value of the header `name` (any letter case).
    public func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.name.lowercased() == lowered }?.value
    }

    /// Sets the header `name`, replacing every value it had.
    public mutating func setHeader(_ name: String, _ value: String) {
        let lowered = name.lowercased()
        headers.removeAll { $0.name.lowercased() == lowered }
        headers.append((name, value))
    }

    /// Whether both requests are the same, header and parameter order included.
    public static func == (lhs: SigV4Request, rhs: SigV4Request) -> Bool {
        lhs.method == rhs.method && lhs.path == rhs.path && lhs.payloadHash == rhs.payloadHash
            && lhs.query.map(\.name) == rhs.query.map(\.name) && lhs.query.map(\.value) == rhs.query.map(\.value)
            && lhs.headers.map(\.name) == rhs.headers.map(\.name)
            && lhs.headers.map(\.value) == rhs.headers.map(\.value)
    }
}
