/// One entity tag of an `If-Match` header (``ChangeOptions/ifMatch``).
public enum IfMatchTag: Hashable, Sendable {
    /// A tag naming one state: matches only while the workspace is that state.
    case tag(WorkspaceETag)
    /// A bare revision number (`"12"`): revisions belong to a lineage, so it names no state and matches nothing; a
    /// change sent with it is refused with 412, never applied to a state the client did not see.
    case bareRevision(UInt64)

    /// Whether this tag names `current`.
    public func matches(_ current: WorkspaceETag) -> Bool {
        switch self {
        case .tag(let tag): return tag == current
        case .bareRevision: return false
        }
    }

    /// The header's form, quoted: `"9f2c4e1a7b3d5e60.12"` or `"12"`.
    public var quoted: String {
        switch self {
        case .tag(let tag): return tag.quoted
        case .bareRevision(let revision): return "\"\(revision)\""
        }
    }
}
