import NIOHTTP1

/// One operation of the control API: its method, its path pattern and the statuses it may answer with. The
/// daemon's router registers exactly these and the client calls exactly these; a test checks them against
/// docs/openapi.yaml in both directions, so the contract is written once.
public struct APIRoute: Sendable, Hashable, CustomStringConvertible {
    /// The method.
    public let method: HTTPMethod
    /// The path, with `{name}` for each parameter (`/v1/projects/{id}`).
    public let pattern: String
    /// Every status the operation may answer with, ascending.
    public let statuses: [Int]

    init(_ method: HTTPMethod, _ pattern: String, _ statuses: [Int]) {
        self.method = method
        self.pattern = pattern
        self.statuses = statuses.sorted()
    }

    /// `GET /v1/projects/{id}`.
    public var description: String { "\(method.rawValue) \(pattern)" }

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
        hasher.combine(method.rawValue)
        hasher.combine(pattern)
    }
}

extension APIRoute {
    // 401 everywhere: a request with a bearer token that is not valid is refused before routing. 400 everywhere: a
    // target with a malformed percent escape (`?a=%zz`) is refused before routing too (found by fuzzing).
    private static let read = [200, 400, 401, 403, 405]
    private static let readByID = [200, 400, 401, 403, 404, 405]
    private static let create = [201, 400, 401, 403, 405, 412, 413, 503]
    private static let createUnder = [201, 400, 401, 403, 404, 405, 412, 413, 503]
    private static let update = [200, 400, 401, 403, 404, 405, 412, 413, 503]
    private static let delete = [200, 400, 401, 403, 404, 405, 412, 503]

    /// `GET /v1/status`.
    public static let status = APIRoute(.GET, "/v1/status", read)
    /// `GET /v1/workspace`.
    public static let workspace = APIRoute(.GET, "/v1/workspace", read)
    /// `POST /v1/flush`.
    public static let flush = APIRoute(.POST, "/v1/flush", [200, 400, 401, 403, 405, 503])
    /// `GET /v1/projects`.
    public static let projects = APIRoute(.GET, "/v1/projects", read)
    /// `POST /v1/projects`.
    public static let createProject = APIRoute(.POST, "/v1/projects", create)
    /// `GET /v1/projects/{id}`.
    public static let project = APIRoute(.GET, "/v1/projects/{id}", readByID)
    /// `PATCH /v1/projects/{id}`.
    public static let updateProject = APIRoute(.PATCH, "/v1/projects/{id}", update)
    /// `DELETE /v1/projects/{id}`.
    public static let deleteProject = APIRoute(.DELETE, "/v1/projects/{id}", delete)
    /// `POST /v1/projects/{id}/panes`.
    public static let createPane = APIRoute(.POST, "/v1/projects/{id}/panes", createUnder)
    /// `PATCH /v1/panes/{id}`.
    public static let updatePane = APIRoute(.PATCH, "/v1/panes/{id}", update)
    /// `DELETE /v1/panes/{id}`.
    public static let deletePane = APIRoute(.DELETE, "/v1/panes/{id}", delete)
    /// `POST /v1/panes/{id}/tabs`.
    public static let createTab = APIRoute(.POST, "/v1/panes/{id}/tabs", createUnder)
    /// `DELETE /v1/tabs/{id}`.
    public static let deleteTab = APIRoute(.DELETE, "/v1/tabs/{id}", delete)
    /// `POST /v1/tabs/{id}/focus`.
    public static let focusTab = APIRoute(.POST, "/v1/tabs/{id}/focus", delete)
    /// `GET /v1/favorites`.
    public static let favorites = APIRoute(.GET, "/v1/favorites", read)
    /// `POST /v1/favorites`.
    public static let addFavorite = APIRoute(.POST, "/v1/favorites", create)
    /// `DELETE /v1/favorites/{id}`.
    public static let deleteFavorite = APIRoute(.DELETE, "/v1/favorites/{id}", delete)
    /// `GET /v1/active-project`.
    public static let activeProject = APIRoute(.GET, "/v1/active-project", read)
    /// `PUT /v1/active-project`.
    public static let setActiveProject = APIRoute(.PUT, "/v1/active-project", update)
    /// `GET /v1/owner`.
    public static let owner = APIRoute(.GET, "/v1/owner", read)
    /// `PATCH /v1/owner`.
    public static let updateOwner = APIRoute(.PATCH, "/v1/owner", [200, 400, 401, 403, 405, 412, 413, 503])
    /// `GET /v1/tokens` (root only; 503 while the secret store is unavailable).
    public static let tokens = APIRoute(.GET, "/v1/tokens", [200, 400, 401, 403, 405, 503])
    /// `POST /v1/tokens` (root only).
    public static let createToken = APIRoute(.POST, "/v1/tokens", [201, 400, 401, 403, 405, 413, 503])
    /// `DELETE /v1/tokens/{id}` (root only): revokes the token.
    public static let revokeToken = APIRoute(.DELETE, "/v1/tokens/{id}", [200, 400, 401, 403, 404, 405, 503])
    /// `GET /v1/events`: newline-delimited JSON events as they happen (503 once the daemon is stopping).
    public static let events = APIRoute(.GET, "/v1/events", [200, 400, 401, 403, 405, 503])

    /// Every operation, in docs/api.md's order.
    public static let all: [APIRoute] = [
        status, workspace, flush, projects, createProject, project, updateProject, deleteProject, createPane,
        updatePane, deletePane, createTab, deleteTab, focusTab, favorites, addFavorite, deleteFavorite,
        activeProject, setActiveProject, owner, updateOwner, tokens, createToken, revokeToken, events,
    ]

    /// The declared operation a request for `method` and `uri` (`/path?query`) goes to, if any: its pattern's
    /// `{name}` segments match any one segment.
    public static func declared(_ method: HTTPMethod, _ uri: String) -> APIRoute? {
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
