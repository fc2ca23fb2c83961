import NIOHTTP1
import WorkspaceAPI

extension HTTPMethod {
    /// The transport's method for a method of the contract: what the router registers a route under.
    package init(_ method: APIMethod) { self.init(rawValue: method.rawValue) }
}

extension APIRoute {
    /// The declared operation a request for the transport's `method` and `uri` (`/path?query`) goes to
    /// (``WorkspaceAPI/APIRoute/declared(_:_:)``); `nil` also for a method no operation uses (`HEAD`, `OPTIONS`).
    package static func declared(_ method: HTTPMethod, _ uri: String) -> APIRoute? {
        APIMethod(rawValue: method.rawValue).flatMap { declared($0, uri) }
    }
}
