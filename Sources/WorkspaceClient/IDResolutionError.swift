import WorkspaceAPI
import WorkspaceModel

/// Why an ``IDReference`` does not name exactly one record: what was given, the kind looked for, and for an
/// ambiguous prefix every record it matches.
public enum IDResolutionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No record of `kind` has this id or an id starting with it. `workspacectl` treats it as the daemon's
    /// `not_found` (exit 1).
    case notFound(reference: IDReference, kind: RecordKind)
    /// The prefix starts the ids of several records of `kind` (listed, at least two). `workspacectl` treats it as
    /// a usage error (exit 64): give more digits.
    case ambiguous(reference: IDReference, kind: RecordKind, matches: [IDPrefixResolver.Candidate])

    /// A sentence for people; for an ambiguous prefix, followed by one indented `id  label` line per match.
    public var description: String {
        switch self {
        case .notFound(.full(let id), let kind):
            return "no \(kind) with id \(id)"
        case .notFound(let reference, let kind):
            return "no \(kind) with an id starting with \(reference)"
        case .ambiguous(let reference, let kind, let matches):
            let heading =
                "the id prefix \(reference) is ambiguous: it starts the ids of \(matches.count) \(kind)s (give more "
                + "digits):"
            return ([heading] + matches.map { "  \($0)" }).joined(separator: "\n")
        }
    }
}
