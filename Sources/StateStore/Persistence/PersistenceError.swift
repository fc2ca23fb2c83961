/// Why a ``PersistentState`` refused a change or could not make a revision durable.
public enum PersistenceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The state was closed; the change was refused and nothing changed.
    case closed(path: String)
    /// The save that included the revision failed; the state stays dirty and the save is retried. The old file
    /// is intact unless the underlying error says the new version may be visible.
    case saveFailed(path: String, revision: UInt64, underlying: StateStoreError)
    /// A wait for a revision that has not been given to any change yet.
    case unknownRevision(path: String, requested: UInt64, latest: UInt64)
    /// The state was closed before the revision became durable.
    case closedBeforeDurable(path: String, revision: UInt64)
    /// A blocking wait gave up.
    case timedOut(path: String, revision: UInt64)
    /// A change expected another revision than `current` (``PersistentState/apply(validatesBeforeMutating:expecting:_:applied:)``);
    /// nothing changed.
    case revisionMismatch(path: String, current: UInt64)
    /// The change was applied as `revision` but the change journal could not record it (`underlying` says why,
    /// or why the journal stopped earlier): it is not acknowledged, and is saved with the next snapshot, which
    /// is taken at once.
    case journalFailed(path: String, revision: UInt64, underlying: String)
    /// The state keeps a change journal, so a change must be a ``StateChange`` value of the journal's type
    /// (``PersistentState/apply(_:origin:expecting:returning:applied:)``), not a closure; nothing changed.
    case notJournaled(path: String, changeType: String)

    /// A sentence an operator can act on.
    public var description: String {
        switch self {
        case .closed(let path):
            return "the state for \(path) is closed; the change was refused"
        case .saveFailed(let path, let revision, let underlying):
            return "saving revision \(revision) of \(path) failed: \(underlying)"
        case .unknownRevision(let path, let requested, let latest):
            return "revision \(requested) of \(path) does not exist yet (latest is \(latest))"
        case .closedBeforeDurable(let path, let revision):
            return "the state for \(path) was closed before revision \(revision) was saved"
        case .timedOut(let path, let revision):
            return "timed out waiting for revision \(revision) of \(path) to be durable"
        case .revisionMismatch(let path, let current):
            return "the state for \(path) is at revision \(current), not the one the change expected; nothing changed"
        case .journalFailed(let path, let revision, let underlying):
            return "revision \(revision) of \(path) was applied but the change journal could not record it "
                + "(\(underlying)); it is saved with the next snapshot"
        case .notJournaled(let path, let changeType):
            return "the state for \(path) journals its changes: apply a \(changeType) value, not a closure; "
                + "nothing changed"
        }
    }
}
