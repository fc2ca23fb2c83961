/// What a migration step tells the load report: fields it filled with a default and warnings about data it
/// had to map.
public struct MigrationContext: Sendable {
    /// The version the step reads.
    public let fromVersion: Int
    /// Defaulted fields by path (`panes[].focusedTabIndex`) with how many records got the default.
    public internal(set) var fieldsDefaulted: [String: Int] = [:]
    /// Warnings in the order they were raised.
    public internal(set) var warnings: [String] = []

    init(fromVersion: Int) {
        self.fromVersion = fromVersion
    }

    /// Records that `count` records got the default for `field`.
    public mutating func defaulted(_ field: String, count: Int = 1) {
        guard count > 0 else { return }
        fieldsDefaulted[field, default: 0] += count
    }

    /// Records a warning, such as a value that had to be mapped to a fallback.
    public mutating func warn(_ message: String) {
        warnings.append(message)
    }

    /// Unknown fields the step dropped because the version it makes declares their key, by field path
    /// (`projects[].panes[].tabs`) with how many records held one: see ``carry(_:to:declaring:)``.
    public internal(set) var unknownFieldsReplaced: [String: Int] = [:]

    /// The unknown fields of a record the step carries into a version whose type declares `declaredKeys`, less
    /// those keys.
    ///
    /// A captured field under a key the new version declares is not the new field's value: the step sets that
    /// (a default, or what it derives from the old record). Kept, it would shadow the declared field in memory
    /// and never be written. So it is dropped here and the load report says so, once per field path with a
    /// count (``LoadReport/warnings``; ``LoadReport/unknownKeysKept`` no longer lists it). The original file,
    /// which the first save after a migration backs up, still holds it. This happens when a file is mislabelled
    /// (a damaged `version` key reads as version 1) or was written by a tool that knew a later version.
    ///
    /// ```swift
    /// PaneV2(id: pane.id, tabs: [], unknownFields: context.carry(pane.unknownFields, to: "panes[]", declaring: ["tabs"]))
    /// ```
    ///
    /// - Parameters:
    ///   - fields: The old record's unknown fields.
    ///   - path: The record's path with array indices folded, as in ``LoadReport/fieldsDefaulted``
    ///     (`projects[].panes[]`; `""` for the root).
    ///   - declaredKeys: The keys the new version's type declares that the old one did not.
    public mutating func carry(
        _ fields: UnknownFields, to path: String, declaring declaredKeys: [String]
    )
        -> UnknownFields
    {
        // Nearly every record has no unknown field.
        guard !fields.isEmpty else { return fields }
        var kept = fields
        for key in declaredKeys where kept.values.removeValue(forKey: key) != nil {
            unknownFieldsReplaced[path.isEmpty ? key : path + "." + key, default: 0] += 1
        }
        return kept
    }
}

/// What a repair pass tells the load report: each fix it made to data that would otherwise break clients.
public struct RepairLog: Sendable {
    /// The repairs in the order they were made.
    public internal(set) var repairs: [String] = []

    init() {}

    /// Records one repair.
    public mutating func repaired(_ message: String) {
        repairs.append(message)
    }
}
