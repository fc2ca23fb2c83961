import WorkspaceAPI
import WorkspaceModel

/// Resolves an ``IDReference`` to the full id of one record of a kind, with `workspacectl`'s rules: an exact match
/// always wins; otherwise a prefix must match exactly one id of that kind; a prefix matching several is
/// ``IDResolutionError/ambiguous(reference:kind:matches:)`` (listing them), one matching none is
/// ``IDResolutionError/notFound(reference:kind:)``.
///
/// A pure function of the ids it is given, usually those of a ``WorkspaceResponse`` (one `GET /v1/workspace`).
/// The workspace may change between that read and the request that uses the id: act on the returned full id,
/// never on the prefix again, so a record created in between cannot be picked instead (a record deleted in
/// between gets the daemon's own `not_found`).
public struct IDPrefixResolver: Sendable {
    /// One record the reference may name: its id and a label that tells it apart for people.
    public struct Candidate: Sendable, Equatable, CustomStringConvertible {
        /// The record's full id.
        public var id: WorkspaceID
        /// A project's or favorite's name, a pane's or tab's folder with its project.
        public var label: String

        /// A candidate with the given parts.
        public init(id: WorkspaceID, label: String) {
            self.id = id
            self.label = label
        }

        /// `id  label`.
        public var description: String { "\(id)  \(label)" }
    }

    /// The kind of record the ids belong to.
    public var kind: RecordKind
    /// The records of ``kind`` a reference is matched against, in workspace order.
    public var candidates: [Candidate]

    /// A resolver over the given records of `kind`.
    public init(kind: RecordKind, candidates: [Candidate]) {
        self.kind = kind
        self.candidates = candidates
    }

    /// A resolver over the records of `kind` in `workspace`.
    public init(_ workspace: Workspace, kind: RecordKind) {
        let candidates: [Candidate]
        switch kind {
        case .project:
            candidates = workspace.projects.map { Candidate(id: $0.id, label: $0.name) }
        case .pane:
            candidates = workspace.projects.flatMap { project in
                project.panes.map { Candidate(id: $0.id, label: "\($0.folder) (project \(project.name))") }
            }
        case .tab:
            candidates = workspace.projects.flatMap { project in
                project.panes.flatMap { pane in
                    pane.tabs.map { Candidate(id: $0.id, label: "\($0.folder) (project \(project.name))") }
                }
            }
        case .favorite:
            candidates = workspace.favorites.map { Candidate(id: $0.id, label: "\($0.name)  \($0.path)") }
        }
        self.init(kind: kind, candidates: candidates)
    }

    /// The records `reference` could name: the exact match alone when there is one, else every record whose id
    /// starts with it (in workspace order).
    public func matches(_ reference: IDReference) -> [Candidate] {
        if let exact = candidates.first(where: { reference.isExactly($0.id) }) { return [exact] }
        var seen: Set<WorkspaceID> = []
        return candidates.filter { reference.isPrefix(of: $0.id) && seen.insert($0.id).inserted }
    }

    /// The full id `reference` names.
    ///
    /// - Throws: ``IDResolutionError`` when it names no record of ``kind``, or several.
    public func resolve(_ reference: IDReference) throws(IDResolutionError) -> WorkspaceID {
        let found = matches(reference)
        switch found.count {
        case 0: throw .notFound(reference: reference, kind: kind)
        case 1: return found[0].id
        default: throw .ambiguous(reference: reference, kind: kind, matches: found)
        }
    }
}
