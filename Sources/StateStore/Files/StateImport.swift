import FoundationEssentials

/// A file at another path that a state file takes over once, when it has no file of its own: the same service's
/// state from an earlier installation that kept it elsewhere. See ``StateFile/load(importing:)``.
public struct StateImport: Sendable, Equatable {
    /// The file to import, as it is named in the marker and the report (the operator's path).
    public var sourcePath: String
    /// Where to read its bytes, when not at ``sourcePath``: a byte-identical copy a privileged helper staged
    /// where this process can read it. The import removes it once it is done with it (imported or refused).
    public var stagedCopyPath: String?
    /// The marker written once the import is durable; while it exists, nothing is imported again.
    public var markerPath: String

    /// An import of `sourcePath`, marked by `markerPath`.
    public init(sourcePath: String, stagedCopyPath: String? = nil, markerPath: String) {
        self.sourcePath = sourcePath
        self.stagedCopyPath = stagedCopyPath
        self.markerPath = markerPath
    }

    /// The intent file written before the state file: `<marker>.pending`. Found next to a state file, it means
    /// that the import wrote the state file but not the marker (the process was killed in between).
    public var pendingPath: String { markerPath + ".pending" }
}

/// The content of an import marker (and of its `.pending` intent): what was imported, so an operator can
/// check that the source is unchanged before removing it.
public struct ImportMarker: Codable, Sendable, Equatable {
    /// The imported file's path.
    public var source: String
    /// Its size in bytes.
    public var size: Int
    /// The SHA-256 of its bytes, lowercase hex.
    public var sha256: String
    /// The schema version stored in it.
    public var version: Int
    /// When the import was done (ISO 8601, UTC).
    public var importedAt: String

    /// A marker with the given values.
    public init(source: String, size: Int, sha256: String, version: Int, importedAt: String) {
        self.source = source
        self.size = size
        self.sha256 = sha256
        self.version = version
        self.importedAt = importedAt
    }
}

/// What ``StateFile/load(importing:)`` did about the import.
public struct ImportResult: Sendable, Equatable {
    /// What happened.
    public enum Outcome: String, Sendable, Equatable {
        /// The source was loaded, written as the state file, and the marker written: log it once.
        case imported
        /// A state file written by an import whose marker was missing (killed in between): the marker was
        /// written now; nothing was imported again.
        case markerCompleted
        /// The marker exists and the state file too: nothing to do.
        case alreadyImported
        /// The marker exists but the state file does not (deleted since): the import does not run again and the
        /// state starts empty. Worth a warning naming the marker.
        case markerWithoutState
        /// The state file exists, no marker, and the source exists too: the state file wins. Worth a warning
        /// naming the source.
        case stateFileWins
        /// The source could not be imported (corrupt, from a newer release, unreadable): nothing was written,
        /// no marker, the source untouched; the state starts empty and the next load tries again.
        case refused
        /// Neither a state file, a marker nor a source: nothing happened.
        case noSource
    }

    /// What happened.
    public var outcome: Outcome
    /// The source's path.
    public var sourcePath: String
    /// The marker's path.
    public var markerPath: String
    /// The marker's content, when one was read or written.
    public var marker: ImportMarker?
    /// Why the import was refused, or why the marker could not be written (the import itself then stands: the
    /// next load completes the marker).
    public var reason: String?

    /// A result with the given values.
    public init(
        outcome: Outcome, sourcePath: String, markerPath: String, marker: ImportMarker? = nil, reason: String? = nil
    ) {
        self.outcome = outcome
        self.sourcePath = sourcePath
        self.markerPath = markerPath
        self.marker = marker
        self.reason = reason
    }
}
