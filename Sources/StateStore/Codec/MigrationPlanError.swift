/// A programming error in a schema's migration chain, reported when the schema is built, never at load.
public enum MigrationPlanError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `firstVersion` is greater than `currentVersion`, or `minReaderVersion` is outside them.
    case invalidVersions(first: Int, current: Int, minReader: Int)
    /// No step reads version `fromVersion`, which lies between the first and the current version.
    case missingStep(fromVersion: Int)
    /// Two steps read the same version.
    case duplicateStep(fromVersion: Int)
    /// A step reads a version outside first..<current.
    case stepOutOfRange(fromVersion: Int, first: Int, current: Int)
    /// A step's output type is not what the next step (or the model, after the last step) reads.
    case typeMismatch(fromVersion: Int, produces: String, nextExpects: String)

    /// A sentence naming the step and versions at fault.
    public var description: String {
        switch self {
        case .invalidVersions(let first, let current, let minReader):
            return "invalid versions: first \(first), current \(current), minReaderVersion \(minReader) "
                + "(need first ≤ minReaderVersion ≤ current)"
        case .missingStep(let from):
            return "the migration chain has a gap: no step from version \(from) to \(from + 1)"
        case .duplicateStep(let from):
            return "two migration steps read version \(from)"
        case .stepOutOfRange(let from, let first, let current):
            return "a migration step reads version \(from), outside \(first)..<\(current)"
        case .typeMismatch(let from, let produces, let nextExpects):
            return
                "the step from version \(from) produces \(produces) but version \(from + 1) is read as \(nextExpects)"
        }
    }
}
