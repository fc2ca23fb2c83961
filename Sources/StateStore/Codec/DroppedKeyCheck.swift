import FoundationEssentials

/// Finds the keys a decode left out of the value it made: the value is written back and every object of the
/// original bytes is compared, key by key, with the same object written back.
///
/// `@StateModel` records account for their keys as they read them (kept, or counted as dropped), but a plain
/// `Codable` type ignores every key it does not declare, and says nothing. Run on the `Codable` path of a load
/// (not on the direct read, where every record is a `@StateModel` one or a standard type), it finds those keys.
/// A key whose value is `null` is not counted (a `nil` optional leaves its key out), nor are the store's own keys
/// at the root, nor keys the value written back has and the bytes did not (defaults).
struct DroppedKeyCheck {
    /// The store's keys at the root (version, minimum reader version, revision, lineage).
    let reservedRootKeys: Set<String>
    /// The encoder the state file is written with.
    let encoder: JSONEncoder

    /// The keys of `original` that `decoded` does not write back, by path with array indices folded
    /// (`projects[].panes[].zoom`), with how many objects held each; empty when nothing is missing or when
    /// `decoded` cannot be written back: when it is not `Encodable` (a frozen version type may be `Decodable`
    /// only, and is then not checked).
    func droppedKeys(original data: Data, decoded: any Sendable) -> [String: Int] {
        guard let encodable = decoded as? any Encodable else { return [:] }
        let decoder = JSONDecoder()
        guard let written = try? encoder.encode(encodable),
            let after = try? decoder.decode(JSONValue.self, from: written),
            let before = try? decoder.decode(JSONValue.self, from: data)
        else { return [:] }
        var dropped: [String: Int] = [:]
        compare(before, after, path: "", atRoot: true, into: &dropped)
        return dropped
    }

    private func compare(
        _ before: JSONValue, _ after: JSONValue, path: String, atRoot: Bool, into dropped: inout [String: Int]
    ) {
        switch (before, after) {
        case (.object(let old), .object(let new)):
            for (key, value) in old {
                if atRoot && reservedRootKeys.contains(key) { continue }
                let field = path.isEmpty ? key : path + "." + key
                if let kept = new[key] {
                    compare(value, kept, path: field, atRoot: false, into: &dropped)
                } else if value != .null {
                    dropped[field, default: 0] += 1
                }
            }
        case (.array(let old), .array(let new)):
            for (element, kept) in zip(old, new) {
                compare(element, kept, path: path + "[]", atRoot: false, into: &dropped)
            }
        default:
            break
        }
    }
}
