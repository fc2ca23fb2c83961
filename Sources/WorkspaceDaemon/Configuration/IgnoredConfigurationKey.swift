/// A key the daemon does not know, ignored with a warning: a key a newer release added (so a rollback still
/// starts) or a typo (the warning names the closest known key). `workspaced check-config` refuses it instead.
package struct IgnoredConfigurationKey: Sendable, Equatable, CustomStringConvertible {
    /// The key as written: a dotted file key (`save.debounce`) or a `WORKSPACED_*` variable.
    package var key: String
    /// Where it was: the file's path, or `the environment`.
    package var source: String
    /// The known key it most likely means, when one is close enough.
    package var suggestion: String?

    /// A key ignored from `source`, with its likely meaning.
    package init(key: String, source: String, suggestion: String?) {
        self.key = key
        self.source = source
        self.suggestion = suggestion
    }

    /// `unknown configuration key save.debounce in /etc/workspaced/config.json ignored (did you mean
    /// save.debounceMilliseconds?)`.
    package var description: String {
        "unknown configuration key \(key) in \(source) ignored"
            + (suggestion.map { " (did you mean \($0)?)" } ?? " (from a newer release, or a typo)")
    }

    /// The known name that extends `key` (`save.debounce` → `save.debounceMilliseconds`), else the closest by edit
    /// distance when within a third of its length (at least 2 edits).
    package static func closest(to key: String, among known: [String]) -> String? {
        if key.count >= 4, let longer = known.first(where: { $0.lowercased().hasPrefix(key.lowercased()) }) {
            return longer
        }
        let limit = max(2, key.count / 3)
        let scored = known.map { (name: $0, distance: editDistance(key.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= limit else { return nil }
        return best.name
    }

    /// Levenshtein distance between two strings, by characters.
    package static func editDistance(_ left: String, _ right: String) -> Int {
        let a = Array(left)
        let b = Array(right)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
