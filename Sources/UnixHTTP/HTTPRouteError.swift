/// Why a route could not be registered.
public enum HTTPRouteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path pattern is not `/literal/{param}/...`.
    case invalidPattern(pattern: String, reason: String)
    /// A route with the same method and the same pattern shape exists already.
    case duplicateRoute(method: String, pattern: String)

    /// A sentence naming the pattern.
    public var description: String {
        switch self {
        case .invalidPattern(let pattern, let reason): return "route pattern \(pattern) is invalid: \(reason)"
        case .duplicateRoute(let method, let pattern): return "route \(method) \(pattern) is registered twice"
        }
    }
}
