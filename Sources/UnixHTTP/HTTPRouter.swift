import NIOHTTP1

/// Maps (method, path pattern) to handlers. Patterns are `/`-separated literals and whole-segment `{param}`s,
/// e.g. `/v1/projects/{id}/panes`; where several patterns match, literals win over parameters.
public struct HTTPRouter: Sendable {
    /// Answers one request; runs on Swift concurrency, never on the event loop.
    public typealias Handler = @Sendable (HTTPRequest) async -> HTTPResponse

    private struct Route: Sendable {
        let method: HTTPMethod
        let pattern: RoutePattern
        let handler: Handler
    }

    private var routes: [Route] = []

    /// Creates a router without routes (every path is 404).
    public init() {}

    /// Registers a handler for a method and path pattern.
    ///
    /// - Throws: ``HTTPRouteError`` for a malformed pattern or a second route with the same method and shape.
    public mutating func register(
        _ method: HTTPMethod, _ pattern: String, handler: @escaping Handler
    ) throws(HTTPRouteError) {
        let parsed = try RoutePattern(pattern)
        if routes.contains(where: { $0.method == method && $0.pattern.hasSameShape(as: parsed) }) {
            throw .duplicateRoute(method: method.rawValue, pattern: pattern)
        }
        routes.append(Route(method: method, pattern: parsed, handler: handler))
    }

    /// Finds the handler for a method and decoded path segments.
    public func match(method: HTTPMethod, pathSegments: [String]) -> HTTPRouteMatch {
        var best: (route: Route, parameters: [String: String])?
        var allowed: [HTTPMethod] = []
        for route in routes {
            guard let parameters = route.pattern.match(pathSegments) else { continue }
            if !allowed.contains(route.method) { allowed.append(route.method) }
            guard route.method == method else { continue }
            if let current = best, !route.pattern.isMoreSpecific(than: current.route.pattern) { continue }
            best = (route, parameters)
        }
        if let best { return .found(handler: best.route.handler, parameters: best.parameters) }
        if allowed.isEmpty { return .notFound }
        return .methodNotAllowed(allowed: allowed)
    }
}

/// The outcome of ``HTTPRouter/match(method:pathSegments:)``.
public enum HTTPRouteMatch: Sendable {
    /// A handler and the decoded values of its pattern's parameters.
    case found(handler: HTTPRouter.Handler, parameters: [String: String])
    /// The path matches routes, none with this method; these methods are allowed.
    case methodNotAllowed(allowed: [HTTPMethod])
    /// No route matches the path.
    case notFound
}
