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
    ///
    /// It reads the UTF-8 bytes: every character it looks for (`/`, `{`, `}`, `?`) is ASCII, and a byte scan skips
    /// the grapheme breaking of a `Character` walk (the daemon registers its routes before it is ready).
    init(_ text: String) throws(HTTPRouteError) {
        guard text.utf8.first == UInt8(ascii: "/") else {
            throw .invalidPattern(pattern: text, reason: "it must start with /")
        }
        let slash = UInt8(ascii: "/")
        let open = UInt8(ascii: "{")
        let close = UInt8(ascii: "}")
        var segments: [Segment] = []
        var names: Set<String> = []
        for piece in text.utf8.split(separator: slash, omittingEmptySubsequences: false).dropFirst() {
            if piece.first == open && piece.last == close && piece.count > 2 {
                let name = String(Substring(piece.dropFirst().dropLast()))
                guard !name.utf8.contains(where: { $0 == open || $0 == close || $0 == slash }) else {
                    throw .invalidPattern(pattern: text, reason: "parameter {\(name)} has a bad name")
                }
                guard names.insert(name).inserted else {
                    throw .invalidPattern(pattern: text, reason: "parameter {\(name)} appears twice")
                }
                segments.append(.parameter(name))
            } else if piece.contains(where: { $0 == open || $0 == close || $0 == UInt8(ascii: "?") }) {
                throw .invalidPattern(
                    pattern: text, reason: "segment \(Substring(piece)) must be a literal or a whole {param}")
            } else {
                segments.append(.literal(String(Substring(piece))))
            }
        }
        self.text = text
        self.segments = segments
    }

    /// Whether both patterns match the same paths: the same literals in the same places, parameters anywhere
    /// else, whatever their names (`/a/{x}` and `/a/{y}`).
    func hasSameShape(as other: RoutePattern) -> Bool {
        guard segments.count == other.segments.count else { return false }
        for (mine, theirs) in zip(segments, other.segments) {
            switch (mine, theirs) {
            case (.literal(let a), .literal(let b)): guard a == b else { return false }
            case (.parameter, .parameter): continue
            default: return false
            }
        }
        return true
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
