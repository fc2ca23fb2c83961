/// A parsed route path such as `/v1/projects/{id}/panes`: literal segments and named parameter segments.
struct RoutePattern: Sendable, Equatable {
    /// One `/`-separated piece of a pattern.
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    let text: String
    let segments: [Segment]

    /// Parses a pattern; parameters must fill a whole segment and be unique.
    init(_ text: String) throws(HTTPRouteError) {
        guard text.hasPrefix("/") else { throw .invalidPattern(pattern: text, reason: "it must start with /") }
        var segments: [Segment] = []
        var names: Set<String> = []
        for piece in text.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            if piece.hasPrefix("{") && piece.hasSuffix("}") && piece.count > 2 {
                let name = String(piece.dropFirst().dropLast())
                guard !name.contains(where: { "{}/".contains($0) }) else {
                    throw .invalidPattern(pattern: text, reason: "parameter {\(name)} has a bad name")
                }
                guard names.insert(name).inserted else {
                    throw .invalidPattern(pattern: text, reason: "parameter {\(name)} appears twice")
                }
                segments.append(.parameter(name))
            } else if piece.contains(where: { $0 == "{" || $0 == "}" || $0 == "?" }) {
                throw .invalidPattern(pattern: text, reason: "segment \(piece) must be a literal or a whole {param}")
            } else {
                segments.append(.literal(String(piece)))
            }
        }
        self.text = text
        self.segments = segments
    }

    /// The pattern with parameter names erased, so `/a/{x}` and `/a/{y}` have the same shape.
    var shape: [Segment] {
        segments.map { if case .parameter = $0 { return .parameter("") } else { return $0 } }
    }

    /// Matches decoded path segments; returns the parameters, or `nil`.
    func match(_ path: [String]) -> [String: String]? {
        guard path.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, value) in zip(segments, path) {
            switch segment {
            case .literal(let literal): guard literal == value else { return nil }
            case .parameter(let name): parameters[name] = value
            }
        }
        return parameters
    }

    /// True when this pattern is preferred over `other` for a path both match: at the first segment where they
    /// differ, a literal beats a parameter.
    func isMoreSpecific(than other: RoutePattern) -> Bool {
        for (mine, theirs) in zip(segments, other.segments) {
            switch (mine, theirs) {
            case (.literal, .parameter): return true
            case (.parameter, .literal): return false
            default: continue
            }
        }
        return false
    }
}
