import StateJSON
import Synchronization

/// What a salvage pass changed, collected while decoding.
package struct SalvageLog: Sendable {
    package var dropped: [SalvageReport.DroppedRecord] = []
    package var coerced: [SalvageReport.CoercedField] = []
    package var defaulted: [SalvageReport.DefaultedField] = []
    /// Paths of the dropped records, to tell which duplicate keys went with them.
    package var droppedPaths: Set<String> = []
}

/// The duplicate keys a salvage must account for, indexed so that each record finds its own at once.
package struct DuplicateKeyIndex: Sendable {
    /// The objects holding a key twice, by path (`projects[1]`, "" for the root), with the key, in file order.
    package let all: [(path: String, key: String)]
    /// For every path that is a duplicate's object or holds it (`projects`, `projects[1]`): the duplicates' positions
    /// in ``all``.
    private let byContainer: [String: [Int]]

    package init(_ duplicates: [(path: String, key: String)]) {
        all = duplicates
        var index: [String: [Int]] = [:]
        for (position, duplicate) in duplicates.enumerated() {
            for container in Self.containers(of: duplicate.path) { index[container, default: []].append(position) }
        }
        byContainer = index
    }

    /// The duplicates in the object at `path` or inside it.
    package func within(_ path: String) -> [(path: String, key: String)] {
        (byContainer[path] ?? []).map { all[$0] }
    }

    /// `path` and every path that holds it: `projects[0].panes[1]`, `projects[0].panes`, `projects[0]`, `projects`.
    package static func containers(of path: String) -> [String] {
        guard !path.isEmpty else { return [""] }
        var result = [path]
        var index = path.endIndex
        while index > path.startIndex {
            index = path.index(before: index)
            if path[index] == "." || path[index] == "[", index > path.startIndex {
                result.append(String(path[..<index]))
            }
        }
        return result
    }
}

extension LoadContext {
    /// Records a value converted to its declared type.
    package func recordCoerced(at codingPath: [any CodingKey], from: String, to: String) {
        let path = DecodingErrorDescription.path(codingPath)
        salvageLog.withLock { $0.coerced.append(SalvageReport.CoercedField(path: path, from: from, to: to)) }
    }

    /// Records a field that could not be read and took its default.
    package func recordSalvageDefault(_ key: String, at codingPath: [any CodingKey], error: any Error) {
        let path = DecodingErrorDescription.path(codingPath + [AnyCodingKey(key)])
        let entry = SalvageReport.DefaultedField(path: path, reason: DecodingErrorDescription.describe(error))
        salvageLog.withLock { $0.defaulted.append(entry) }
    }

    /// Records a dropped record, forgetting what was recorded inside it (it went with the record).
    ///
    /// A record is read depth first, so what was recorded inside it is what was recorded last: each list loses a
    /// suffix, and dropping many records stays linear.
    package func recordDropped(at codingPath: [any CodingKey], id: String?, reason: String) {
        let path = DecodingErrorDescription.path(codingPath)
        salvageLog.withLock { log in
            while let last = log.coerced.last, Self.isInside(last.path, path) { log.coerced.removeLast() }
            while let last = log.defaulted.last, Self.isInside(last.path, path) { log.defaulted.removeLast() }
            while let last = log.dropped.last, Self.isInside(last.path, path) {
                log.droppedPaths.remove(last.path)
                log.dropped.removeLast()
            }
            log.dropped.append(SalvageReport.DroppedRecord(path: path, id: id, reason: reason))
            log.droppedPaths.insert(path)
        }
    }

    /// The description of a duplicated key in the object at `codingPath` or inside it that no dropped record took
    /// with it, if any.
    package func duplicateKeyNotDropped(within codingPath: [any CodingKey]) -> String? {
        guard !duplicateKeys.all.isEmpty else { return nil }
        let candidates = duplicateKeys.within(DecodingErrorDescription.path(codingPath))
        guard !candidates.isEmpty else { return nil }
        let dropped = salvageLog.withLock { $0.droppedPaths }
        guard let duplicate = candidates.first(where: { !Self.isDropped($0.path, dropped) }) else { return nil }
        let place = duplicate.path.isEmpty ? "the root" : duplicate.path
        return "duplicate key \(JSONText.quoted(duplicate.key)) in \(place)"
    }

    /// The duplicated keys that no dropped record took with it.
    package func duplicateKeysKept() -> [(path: String, key: String)] {
        let dropped = salvageLog.withLock { $0.droppedPaths }
        return duplicateKeys.all.filter { !Self.isDropped($0.path, dropped) }
    }

    /// Whether the value at `path` went with a dropped record (the record itself or one holding it).
    private static func isDropped(_ path: String, _ dropped: Set<String>) -> Bool {
        !path.isEmpty && DuplicateKeyIndex.containers(of: path).contains { dropped.contains($0) }
    }

    /// Whether `path` names something inside the value at `container` (`projects[2].name` inside `projects[2]`).
    package static func isInside(_ path: String, _ container: String) -> Bool {
        guard path.count > container.count, path.hasPrefix(container) else { return false }
        let next = path[path.index(path.startIndex, offsetBy: container.count)]
        return next == "." || next == "["
    }
}
