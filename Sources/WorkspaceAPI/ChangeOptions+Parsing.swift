import FoundationEssentials

extension ChangeOptions {
    /// Reads a request's options from the parts of it that carry them, in this order: the durability flags, then
    /// `If-Match`.
    ///
    /// A flag is `true`, `1`, `yes` or empty for durable, `false`, `0` or `no` for not (any case); either flag asks
    /// for durability. `If-Match` lists entity tags (`"9f2c4e1a7b3d5e60.12"`, also unquoted or `W/`-prefixed);
    /// `*` alone is no guard, and a bare revision number (`"12"`) is kept as ``IfMatchTag/bareRevision(_:)``, a
    /// tag that matches nothing.
    ///
    /// - Parameters:
    ///   - durableQuery: The value of the `durable` query item (`""` for a bare `?durable`); `nil` when absent.
    ///   - durableHeader: The value of the first `Workspaced-Durable` header; `nil` when absent.
    ///   - ifMatch: The elements of the `If-Match` headers, each comma-separated list split (HTTP's list syntax).
    /// - Throws: ``ChangeOptionsError`` naming the first flag or `If-Match` element that is malformed.
    package init(durableQuery: String?, durableHeader: String?, ifMatch: [String]) throws(ChangeOptionsError) {
        let query = try Self.flag(durableQuery, name: Self.durableQueryItem)
        let header = try Self.flag(durableHeader, name: Self.durableHeader)
        durable = query || header
        self.ifMatch = try Self.tags(ifMatch)
    }

    /// The tags of `If-Match`'s elements, or `nil` for none or `*`.
    private static func tags(_ elements: [String]) throws(ChangeOptionsError) -> [IfMatchTag]? {
        let values = elements.map { $0.trimmingBlanks() }
        guard !values.isEmpty, values != ["*"] else { return nil }
        var tags: [IfMatchTag] = []
        for value in values where !value.isEmpty {
            if let tag = WorkspaceETag(value) {
                tags.append(.tag(tag))
            } else if let revision = UInt64(opaque(value)) {
                tags.append(.bareRevision(revision))
            } else {
                throw .invalidIfMatch(value: value)
            }
        }
        return tags
    }

    /// The tag without `W/` and quotes.
    private static func opaque(_ value: String) -> Substring {
        var text = Substring(value)
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = text.dropFirst().dropLast() }
        return text
    }

    /// A durability flag's value: `false` when absent.
    private static func flag(_ value: String?, name: String) throws(ChangeOptionsError) -> Bool {
        guard let value else { return false }
        switch value.lowercased() {
        case "true", "1", "yes", "": return true
        case "false", "0", "no": return false
        default: throw .invalidFlag(name: name, value: value)
        }
    }
}
