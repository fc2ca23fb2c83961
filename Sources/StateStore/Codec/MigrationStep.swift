/// One step of a migration chain: reads the file format of version `from` and produces the model of version
/// `from + 1`.
///
/// Steps are typed: each version that ever shipped keeps its own `Decodable` type, frozen as it shipped, and a
/// step converts a value of that type into the next version's type. A file stored at version *n* is decoded
/// once, as version *n*'s type, and then converted step by step to the current model.
///
/// A step may also declare its reverse, ``init(from:_:to:convert:revert:)``: how a value of version `from + 1`
/// is written back as version `from`, so that a release can be rolled back (``StateCodec/encode(_:downTo:)``).
/// The chain down from the current version stops at the first step without one.
public struct MigrationStep: Sendable {
    /// The version this step reads.
    public let fromVersion: Int
    let inputType: Any.Type
    let outputType: Any.Type
    let decode: @Sendable (any Decoder) throws -> any Sendable
    /// Decodes `Old` in a salvage pass: with `StateSalvageable/init(salvaging:)` when it has one.
    let salvageDecode: @Sendable (any Decoder) throws -> any Sendable
    /// The reader of the input type straight from the bytes, when it is `StateDirectDecodable`. Looked up when a
    /// load reads a file of this step's version, not when the schema is made: the first lookup of a conformance
    /// scans every conformance record of the process, and a start reads one version, not every step's.
    let directDecoder: @Sendable () -> (@Sendable (inout StateDirectReader) throws -> any Sendable)?
    /// Converts the value of version `from` to `from + 1`; it takes the value (leaving `()`), so that a step made
    /// with ``init(from:_:to:consuming:)`` holds the only reference to it.
    let convert: @Sendable (inout any Sendable, inout MigrationContext) throws -> any Sendable
    /// The reverse: a value of version `from + 1` as version `from`; `nil` when the step declares none.
    private(set) var revert: (@Sendable (any Sendable, inout MigrationContext) throws -> any Sendable)?
    /// Encodes a value of version `from` (what ``revert`` makes); `nil` when the step declares no reverse.
    private(set) var encodeInput: (@Sendable (any Sendable, any Encoder) throws -> Void)?

    /// Whether the step declares its reverse: a file of version `from + 1` can be written as version `from`.
    public var hasReverse: Bool { revert != nil }

    /// A step from version `from` (decoded as `Old`) to version `from + 1` (produced as `New`).
    ///
    /// - Parameters:
    ///   - from: The version `Old` describes.
    ///   - old: The type of version `from`, as it shipped.
    ///   - new: The type of version `from + 1`: the next step's input, or the current model for the last step.
    ///   - convert: Builds the new value. Record defaults and warnings on the context. Throwing marks the file
    ///     as corrupt (the corrupt-file policy applies).
    public init<Old: Decodable & Sendable, New: Sendable>(
        from: Int,
        _ old: Old.Type,
        to new: New.Type,
        convert: @escaping @Sendable (Old, inout MigrationContext) throws -> New
    ) {
        self.init(from: from, old, to: new, consuming: { old, context in try convert(old, &context) })
    }

    /// A step from version `from` to `from + 1` that takes the old value apart as it converts it.
    ///
    /// `convert` is handed the decoded value of version `from` as the only reference to it, so a part it moves
    /// out (`let items = old.items; old.items = []`) is uniquely its own and is freed as soon as it is converted:
    /// a load that migrates a large state then holds about one model at a time instead of the old one and the
    /// new one side by side. What it leaves in `old` is discarded.
    ///
    /// Disfavored so that a trailing closure still means ``init(from:_:to:convert:)``: name `consuming:` to use it.
    /// - Parameters:
    ///   - from: The version `Old` describes.
    ///   - old: The type of version `from`, as it shipped.
    ///   - new: The type of version `from + 1`.
    ///   - convert: Builds the new value, taking what it likes from the old one. Throwing marks the file as corrupt.
    @_disfavoredOverload
    public init<Old: Decodable & Sendable, New: Sendable>(
        from: Int,
        _ old: Old.Type,
        to new: New.Type,
        consuming convert: @escaping @Sendable (inout Old, inout MigrationContext) throws -> New
    ) {
        self.fromVersion = from
        self.inputType = old
        self.outputType = new
        self.decode = { decoder in try Old(from: decoder) }
        self.salvageDecode = { decoder in try Salvaging<Old>.decodeNested(from: decoder) }
        self.directDecoder = { Self.directDecoder(of: Old.self) }
        self.convert = { value, context in
            guard var old = value as? Old else {
                throw MigrationPlanError.typeMismatch(
                    fromVersion: from, produces: "\(type(of: value))", nextExpects: "\(Old.self)")
            }
            // The existential lets its copy go: `old` is now the only reference to the value's storage.
            value = ()
            return try convert(&old, &context)
        }
        self.revert = nil
        self.encodeInput = nil
    }

    /// A step from version `from` to `from + 1` that can also be taken back: `revert` writes a value of version
    /// `from + 1` as version `from`, for a rollback to an older release.
    ///
    /// A field `Old` cannot hold is not dropped: `revert` sets it aside in the older record's unknown fields
    /// (``MigrationContext/setAside(_:as:in:at:)``), which the older release keeps and writes back, and `convert`
    /// takes it back (``MigrationContext/takeBack(_:_:from:at:)``), so that down then up gives the state that
    /// went down. A field with no place and no value to set aside takes the older version's default
    /// (``MigrationContext/defaulted(_:count:)``).
    ///
    /// - Parameters:
    ///   - from: The version `Old` describes.
    ///   - old: The type of version `from`, as it shipped; written by the reverse, so `Encodable` too.
    ///   - new: The type of version `from + 1`.
    ///   - convert: Builds the new value from the old one.
    ///   - revert: Builds the old value from the new one. Throwing refuses the way down with the error.
    public init<Old: Codable & Sendable, New: Sendable>(
        from: Int,
        _ old: Old.Type,
        to new: New.Type,
        convert: @escaping @Sendable (Old, inout MigrationContext) throws -> New,
        revert: @escaping @Sendable (New, inout MigrationContext) throws -> Old
    ) {
        self.init(
            from: from, old, to: new, consuming: { old, context in try convert(old, &context) }, revert: revert)
    }

    /// A step that takes the old value apart as it converts it (``init(from:_:to:consuming:)``) and can be taken
    /// back (``init(from:_:to:convert:revert:)``).
    ///
    /// - Parameters:
    ///   - from: The version `Old` describes.
    ///   - old: The type of version `from`, as it shipped; written by the reverse, so `Encodable` too.
    ///   - new: The type of version `from + 1`.
    ///   - convert: Builds the new value, taking what it likes from the old one.
    ///   - revert: Builds the old value from the new one. Throwing refuses the way down with the error.
    @_disfavoredOverload
    public init<Old: Codable & Sendable, New: Sendable>(
        from: Int,
        _ old: Old.Type,
        to new: New.Type,
        consuming convert: @escaping @Sendable (inout Old, inout MigrationContext) throws -> New,
        revert: @escaping @Sendable (New, inout MigrationContext) throws -> Old
    ) {
        self.init(from: from, old, to: new, consuming: convert)
        self.revert = { value, context in
            guard let new = value as? New else {
                throw MigrationPlanError.typeMismatch(
                    fromVersion: from, produces: "\(type(of: value))", nextExpects: "\(New.self)")
            }
            return try revert(new, &context)
        }
        self.encodeInput = { value, encoder in
            guard let old = value as? Old else {
                throw EncodingError.invalidValue(
                    value,
                    EncodingError.Context(
                        codingPath: encoder.codingPath, debugDescription: "not a value of version \(from)"))
            }
            try old.encode(to: encoder)
        }
    }
}

extension MigrationStep {
    /// A reader of `Value` straight from the bytes, when it is `StateDirectDecodable`; nil otherwise. The closure
    /// looks the conformance up when it runs (once a load) so that it captures no existential metatype, which is
    /// not `Sendable`.
    static func directDecoder<Value: Sendable>(
        of value: Value.Type
    ) -> (@Sendable (inout StateDirectReader) throws -> any Sendable)? {
        guard Value.self is any StateDirectDecodable.Type else { return nil }
        return { reader in
            let type = Value.self as! any StateDirectDecodable.Type
            return try type.init(stateReader: &reader) as! Value
        }
    }
}
