/// Why a change to a ``Workspace`` was refused. The workspace is unchanged when one is thrown.
public enum WorkspaceError: Error, Equatable, Sendable, Codable, CustomStringConvertible {
    /// No record of `kind` has `id`.
    case notFound(kind: RecordKind, id: WorkspaceID)
    /// A record of `kind` with `id` already exists (ids are unique within a kind).
    case alreadyExists(kind: RecordKind, id: WorkspaceID)
    /// A value breaks a rule: `field` names it (`name`, `layout`, `folder`, `viewMode`, `path`, `alias`, `email`),
    /// `reason` says which rule.
    case invalid(field: String, reason: String)
    /// A project put back from the past (``Workspace/restoreProject(_:at:)``) holds a record of `kind` with `id`
    /// that the project `usedBy` holds now: ids are unique within a kind, so the two cannot both be kept.
    case conflict(kind: RecordKind, id: WorkspaceID, usedBy: WorkspaceID)

    /// A sentence a client can show.
    public var description: String {
        switch self {
        case .notFound(let kind, let id):
            return "no \(kind) with id \(id)"
        case .alreadyExists(let kind, let id):
            return "a \(kind) with id \(id) already exists"
        case .invalid(let field, let reason):
            return "invalid \(field): \(reason)"
        case .conflict(let kind, let id, let project):
            return "the \(kind) \(id) belongs to the project \(project) now"
        }
    }
}
