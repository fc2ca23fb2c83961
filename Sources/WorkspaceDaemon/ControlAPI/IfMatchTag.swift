import WorkspaceAPI

/// One entity tag of an `If-Match` header.
enum IfMatchTag: Equatable, Sendable {
    /// A tag naming one state: matches only while the workspace is that state.
    case tag(WorkspaceETag)
    /// A bare revision number: names no lineage, so it matches nothing.
    case bareRevision(UInt64)

    /// Whether this tag names `current`.
    func matches(_ current: WorkspaceETag) -> Bool {
        switch self {
        case .tag(let tag): return tag == current
        case .bareRevision: return false
        }
    }
}
