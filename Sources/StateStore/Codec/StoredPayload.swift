/// What a read of a state file found before any migration: the envelope's values and the stored version's model,
/// with the defaults given and the unknown keys kept on the way, by path.
struct StoredPayload {
    let version: Int
    let minReaderVersion: Int?
    let revision: UInt64?
    let lineage: Lineage?
    /// What was wrong with a stored revision or lineage (both are then ignored).
    let stampWarning: String?
    /// A value of the stored version's type (the current model's for a newer compatible file).
    let payload: any Sendable
    let fieldsDefaulted: [String: Int]
    let unknownKeysKept: [String: Int]
    /// Keys of the file that the stored version's types neither declare nor keep, by path.
    var unknownKeysDropped: [String: Int] = [:]
}
