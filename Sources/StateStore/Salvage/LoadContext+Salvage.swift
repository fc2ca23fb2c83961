import Synchronization

/// What a salvage pass changed, collected while decoding.
struct SalvageLog: Sendable {
    var dropped: [SalvageReport.DroppedRecord] = []
    var coerced: [SalvageReport.CoercedField] = []
    var defaulted: [SalvageReport.DefaultedField] = []
    /// Paths of dropped records, to tell which duplicate keys went with them.
    var droppedPaths: [String] = []
}

extension LoadContext {
    /// Records a value converted to its declared type.
    func recordCoerced(at codingPath: [any CodingKey], from: String, to: String) {
        let path = DecodingErrorDescription.path(codingPath)
        salvageLog.withLock { $0.coerced.append(SalvageReport.CoercedField(path: path, from: from, to: to)) }
    }

    /// Records a field that could not be read and took its default.
    func recordSalvageDefault(_ key: String, at codingPath: [any CodingKey], error: any Error) {
        let path = DecodingErrorDescription.path(codingPath + [AnyCodingKey(key)])
        let entry = SalvageReport.DefaultedField(path: path, reason: DecodingErrorDescription.describe(error))
        salvageLog.withLock { $0.defaulted.append(entry) }
    }

    /// Records a dropped record, forgetting what was recorded inside it (it went with the record).
    func recordDropped(at codingPath: [any CodingKey], id: String?, reason: String) {
        let path = DecodingErrorDescription.path(codingPath)
        salvageLog.withLock { log in
            log.coerced.removeAll { Self.isInside($0.path, path) }
            log.defaulted.removeAll { Self.isInside($0.path, path) }
            log.dropped.removeAll { Self.isInside($0.path, path) }
            log.droppedPaths.removeAll { Self.isInside($0, path) }
            log.dropped.append(SalvageReport.DroppedRecord(path: path, id: id, reason: reason))
            log.droppedPaths.append(path)
        }
    }

    /// The description of a duplicated key in the object at `codingPath` or inside it, if any.
    func duplicateKey(within codingPath: [any CodingKey]) -> String? {
        guard !duplicateKeys.isEmpty else { return nil }
        let path = DecodingErrorDescription.path(codingPath)
        guard let duplicate = duplicateKeys.first(where: { $0.path == path || Self.isInside($0.path, path) }) else {
            return nil
        }
        return
            "duplicate key \(JSONText.quoted(duplicate.key)) in \(duplicate.path.isEmpty ? "the root" : duplicate.path)"
    }

    /// The duplicated keys that no dropped record took with it.
    func duplicateKeysKept() -> [(path: String, key: String)] {
        let dropped = salvageLog.withLock { $0.droppedPaths }
        return duplicateKeys.filter { duplicate in
            !dropped.contains { duplicate.path == $0 || Self.isInside(duplicate.path, $0) }
        }
    }

    /// Whether `path` names something inside the value at `container` (`projects[2].name` inside `projects[2]`).
    static func isInside(_ path: String, _ container: String) -> Bool {
        guard path.count > container.count, path.hasPrefix(container) else { return false }
        let next = path[path.index(path.startIndex, offsetBy: container.count)]
        return next == "." || next == "["
    }
}
