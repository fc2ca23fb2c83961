/// One step of a migration chain: reads the file format of version `from` and produces the model of version
/// `from + 1`.
///
/// Steps are typed: each version that ever shipped keeps its own `Decodable` type, frozen as it shipped, and a
/// step converts a value of that type into the next version's type. A file stored at version *n* is decoded
/// once, as version *n*'s type, and then converted step by step to the current model.
public struct MigrationStep: Sendable {
    /// The version this step reads.
    public let fromVersion: Int
    let inputType: Any.Type
    let outputType: Any.Type
    let decode: @Sendable (any Decoder) throws -> any Sendable
    /// Decodes `Old` in a salvage pass: with ``StateSalvageable/init(salvaging:)`` when it has one.
    let salvageDecode: @Sendable (any Decoder) throws -> any Sendable
    let convert: @Sendable (any Sendable, inout MigrationContext) throws -> any Sendable

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
        self.fromVersion = from
        self.inputType = old
        self.outputType = new
        self.decode = { decoder in try Old(from: decoder) }
        self.salvageDecode = { decoder in try Salvaging<Old>.decodeNested(from: decoder) }
        self.convert = { value, context in
            guard let old = value as? Old else {
                throw MigrationPlanError.typeMismatch(
                    fromVersion: from, produces: "\(type(of: value))", nextExpects: "\(Old.self)")
            }
            return try convert(old, &context)
        }
    }
}
