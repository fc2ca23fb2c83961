/// What a migration step tells the load report: fields it filled with a default and warnings about data it
/// had to map; and, between a step and its reverse, the fields set aside in unknown fields and taken back.
public struct MigrationContext: Sendable {
    /// The version the step reads.
    public let fromVersion: Int
    /// The version the step makes: `fromVersion + 1` up, `fromVersion - 1` down (a reverse step).
    public let toVersion: Int
    /// How the state file writes dates: set-aside values are written the same way.
    let dateCoding: DateCoding
    /// Defaulted fields by path (`panes[].focusedTabIndex`) with how many records got the default.
    public internal(set) var fieldsDefaulted: [String: Int] = [:]
    /// Warnings in the order they were raised.
    public internal(set) var warnings: [String] = []
    /// Fields a reverse step set aside in the older version's unknown fields, by field path, with how many
    /// records had one: see ``setAside(_:as:in:at:)``.
    public internal(set) var fieldsSetAside: [String: Int] = [:]
    /// Fields an up step took back from the unknown fields a reverse step had put them in, by field path, with
    /// how many records had one: see ``takeBack(_:_:from:at:)``.
    public internal(set) var fieldsTakenBack: [String: Int] = [:]
    /// Unknown fields ``takeBack(_:_:from:at:)`` removed (read or not), by field path: no longer kept unknown.
    var unknownKeysConsumed: [String: Int] = [:]

    init(fromVersion: Int, toVersion: Int? = nil, dateCoding: DateCoding = .iso8601) {
        self.fromVersion = fromVersion
        self.toVersion = toVersion ?? fromVersion + 1
        self.dateCoding = dateCoding
    }

    /// In a reverse step: keeps `value`, a field the older version cannot hold, in the older record's unknown
    /// fields under `key`, where the older release keeps it and writes it back untouched.
    ///
    /// `key` must be one the older version does not declare (the field's own name, when the older version has
    /// no field of that name; another name when it declares the name with another meaning or type). The up step
    /// takes it back with ``takeBack(_:_:from:at:)`` and the same key.
    ///
    /// ```swift
    /// PaneV1(id: pane.id, folder: pane.folder,
    ///        unknownFields: try context.setAside(pane.tabs, as: "tabs", in: pane.unknownFields, at: "panes[]"))
    /// ```
    ///
    /// - Parameters:
    ///   - value: The newer field's value.
    ///   - key: The key to keep it under.
    ///   - fields: The newer record's unknown fields.
    ///   - path: The record's path with array indices folded (`projects[].panes[]`; `""` for the root), as the
    ///     report names the field.
    /// - Returns: `fields` with the value added.
    /// - Throws: `EncodingError` when the value does not encode.
    public mutating func setAside<Value: Encodable>(
        _ value: Value, as key: String, in fields: UnknownFields, at path: String
    ) throws -> UnknownFields {
        var kept = fields
        kept[key] = try JSONValueConversion.value(of: value, dateCoding: dateCoding)
        fieldsSetAside[Self.field(key, at: path), default: 0] += 1
        return kept
    }

    /// In an up step: the value a reverse step set aside under `key`, removed from `fields`; `nil` when there is
    /// none (the step then uses its default).
    ///
    /// A value that does not read as `Value` (an older release's hand edit, a foreign tool) is dropped with a
    /// warning, and `nil` returned: the field takes its default and the original file still holds the value.
    ///
    /// - Parameters:
    ///   - type: The newer field's type.
    ///   - key: The key ``setAside(_:as:in:at:)`` used.
    ///   - fields: The older record's unknown fields; the key is removed.
    ///   - path: The record's path with array indices folded.
    public mutating func takeBack<Value: Decodable>(
        _ type: Value.Type, _ key: String, from fields: inout UnknownFields, at path: String
    ) -> Value? {
        // Nearly every record has no unknown field.
        guard !fields.isEmpty, let stored = fields.removeValue(forKey: key) else { return nil }
        let field = Self.field(key, at: path)
        unknownKeysConsumed[field, default: 0] += 1
        do {
            let value = try JSONValueConversion.decode(Value.self, from: stored, dateCoding: dateCoding)
            fieldsTakenBack[field, default: 0] += 1
            return value
        } catch {
            warn(
                "\(field): the value kept by a rollback to version \(fromVersion) does not read as version "
                    + "\(toVersion)'s \(Value.self) (\(DecodingErrorDescription.describe(error))); the default "
                    + "replaced it (the original file still holds it)")
            return nil
        }
    }

    private static func field(_ key: String, at path: String) -> String {
        path.isEmpty ? key : path + "." + key
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
        for key in declaredKeys where kept.removeValue(forKey: key) != nil {
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
