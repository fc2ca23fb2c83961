/// Why a load gave the state a new ``Lineage`` instead of continuing the stored one.
public enum LineageBreak: String, Sendable, Equatable, CustomStringConvertible {
    /// There was no state file: the state starts anew.
    case noFile = "no-file"
    /// The file was corrupt and quarantined: the state starts anew.
    case quarantined
    /// The file was salvaged: records were dropped or changed.
    case salvaged
    /// The state was imported from another file.
    case imported
    /// The file stores no lineage (written before lineages existed, or by hand).
    case notStored = "not-stored"
    /// The last owner of the file did not stop cleanly: it may have handed out revisions it never saved.
    case uncleanStop = "unclean-stop"
    /// The file changed since its last owner stopped (restored from a backup, copied in or edited by hand).
    case changedSinceStop = "changed-since-stop"
    /// A backup or set-aside copy was restored over the file (``StateFile/restoreBackup(named:salvaging:)``),
    /// which handed it over cleanly under a new lineage.
    case restored

    /// A phrase for logs: `the last owner did not stop cleanly`.
    public var description: String {
        switch self {
        case .noFile: return "there was no state file"
        case .quarantined: return "the file was quarantined"
        case .salvaged: return "the file was salvaged"
        case .imported: return "the state was imported"
        case .notStored: return "the file stores no lineage"
        case .uncleanStop: return "the last owner did not stop cleanly"
        case .changedSinceStop: return "the file changed since its last owner stopped"
        case .restored: return "a backup was restored over the file"
        }
    }
}
