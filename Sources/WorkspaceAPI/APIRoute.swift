/// One operation of the control API: its method, its path pattern and the statuses it may answer with. The
/// daemon's router registers exactly these and the client calls exactly these.
///
/// The operations themselves (``all``) are written once, in docs/openapi.yaml: Scripts/api-routes.py makes
/// APIRoute+Operations.swift from it (`make lint` checks that the two match), and a test checks the router against
/// both. A 401 and a 400 are documented everywhere: a bad bearer token and a malformed percent escape are refused
/// before routing.
public struct APIRoute: Sendable, Hashable, CustomStringConvertible {
    /// The method.
    public let method: APIMethod
    /// The path, with `{name}` for each parameter (`/v1/projects/{id}`).
    public let pattern: String
    /// Every status the operation may answer with, ascending.
    public let statuses: [Int]

    init(_ method: APIMethod, _ pattern: String, _ statuses: [Int]) {
        self.method = method
        self.pattern = pattern
        self.statuses = statuses.sorted()
    }

    /// `GET /v1/projects/{id}`.
    public var description: String { "\(method) \(pattern)" }

    /// The path with `parameters` in place of the pattern's `{name}` segments, in order.
    public func path(_ parameters: String...) -> String { path(parameters: parameters) }

    /// The path with `parameters` (percent-encoded) in place of the pattern's `{name}` segments, in order.
    public func path(parameters: [String]) -> String {
        var remaining = parameters[...]
        return pattern.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            guard segment.hasPrefix("{"), let value = remaining.popFirst() else { return String(segment) }
            return value.addingPercentEncodingForPathSegment()
        }.joined(separator: "/")
    }

    /// Equal when method and pattern are.
    public static func == (lhs: APIRoute, rhs: APIRoute) -> Bool {
        lhs.method == rhs.method && lhs.pattern == rhs.pattern
    }

    /// Hashes method and pattern.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(pattern)
    }
}

extension APIRoute {
    /// The declared operation a request for `method` and `uri` (`/path?query`) goes to, if any: its pattern's
    /// `{name}` segments match any one segment.
    public static func declared(_ method: APIMethod, _ uri: String) -> APIRoute? {
        let path = uri.split(separator: "?", omittingEmptySubsequences: false).first.map(String.init) ?? uri
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        return all.first { route in
            let pattern = route.pattern.split(separator: "/", omittingEmptySubsequences: false)
            return route.method == method && pattern.count == segments.count
                && zip(pattern, segments).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
        }
    }
}

extension String {
    /// Percent-encodes everything but unreserved characters, for one path segment.
    func addingPercentEncodingForPathSegment() -> String {
        var result = ""
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.append(Character(Unicode.Scalar(byte)))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (byte < 16 ? "0" + hex : hex)
            }
        }
        return result
    }
}
