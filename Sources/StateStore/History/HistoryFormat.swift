import FoundationEssentials

/// The files of the history, in `<state file>.history/`:
///
/// - `snapshot.<revision>.<lineage>.json`: the state file as a save left it at that revision (a hard link taken
///   right after the save, so it costs no copy: a state file is always replaced, never written in place);
/// - `journal.<base>.<lineage>`: a journal segment a snapshot made redundant, moved here instead of removed, with
///   its bytes unchanged (``JournalSegmentFormat``, markers included);
/// - `manifest.json`: every file's kind, lineage, revisions, times, size and SHA-256 (``HistoryManifest``).
///
/// Nothing outside the directory refers to it, so a release that knows nothing of history ignores it, as it
/// ignores a journal it does not read.
package enum HistoryFormat {
    /// The history directory of the state file at `path`.
    package static func directory(ofStateFile path: String) -> String { path + ".history" }

    /// The manifest's name in the directory.
    package static let manifestName = "manifest.json"

    /// The name of a snapshot of `revision` in `lineage`.
    package static func snapshotName(revision: UInt64, lineage: String) -> String {
        "snapshot.\(revision).\(lineage).json"
    }

    /// The name of a segment continuing `baseRevision` in `lineage`; `copy` above 0 when that name is taken by
    /// different bytes.
    package static func segmentName(baseRevision: UInt64, lineage: String, copy: Int = 0) -> String {
        "journal.\(baseRevision).\(lineage)" + (copy > 0 ? ".\(copy)" : "")
    }

    /// What a name in the directory is.
    package enum Name: Equatable {
        case snapshot(revision: UInt64, lineage: String)
        case segment(baseRevision: UInt64, lineage: String)
    }

    /// The kind a file's name gives, or `nil` for the manifest, temporary files and anything else.
    package static func parse(_ name: String) -> Name? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 4, parts[0] == "snapshot", parts[3] == "json", let revision = UInt64(parts[1]),
            Lineage(rawValue: parts[2]) != nil
        {
            return .snapshot(revision: revision, lineage: parts[2])
        }
        if (3...4).contains(parts.count), parts[0] == "journal", let base = UInt64(parts[1]),
            Lineage(rawValue: parts[2]) != nil, parts.count == 3 || Int(parts[3]) != nil
        {
            return .segment(baseRevision: base, lineage: parts[2])
        }
        return nil
    }
}

/// The history's index, `manifest.json`: one record per file. It is rewritten durably after every change to the
/// directory; a crash between the two is repaired by the next start, which adopts files the manifest lacks and
/// forgets records whose file is gone.
package struct HistoryManifest: Codable, Equatable, Sendable {
    /// The format version.
    package var history = 1
    /// The files, oldest first.
    package var files: [HistoryFileRecord] = []

    /// A manifest of `files`.
    package init(files: [HistoryFileRecord] = []) {
        self.files = files
    }
}

/// One file of the history as the manifest records it.
package struct HistoryFileRecord: Codable, Equatable, Sendable {
    /// Whether a file is a snapshot or a segment.
    package enum Kind: String, Codable, Sendable {
        case snapshot
        case segment
    }

    /// The file's name in the directory.
    package var name: String
    /// Snapshot or segment.
    package var kind: Kind
    /// The lineage the snapshot holds or the segment continues.
    package var lineage: String
    /// For a segment that starts its lineage without a snapshot: the lineage it continues (`null` for none).
    package var relabels: String?
    /// Whether ``relabels`` is meaningful.
    package var startsLineage: Bool
    /// The snapshot's revision, or the segment's base.
    package var firstRevision: UInt64
    /// The snapshot's revision, or the segment's last change.
    package var lastRevision: UInt64
    /// When the snapshot was taken, or the segment's first change was applied (its first marker).
    package var firstTime: Date?
    /// When the snapshot was taken, or the segment's last change was applied.
    package var lastTime: Date?
    /// When it entered the history.
    package var archivedTime: Date
    /// Its size.
    package var bytes: Int
    /// Lower-case hex SHA-256 of the bytes: what `verifyHistory()` and `workspaced check` compare.
    package var sha256: String
    /// A snapshot's CRC-32C (absent for segments, whose records carry their own, and from the manifests of the
    /// first release with history): what a read of the past compares before it trusts the snapshot, at the
    /// processor's CRC speed, far above SHA-256's. A bit flipped on disk changes it as surely as the SHA-256.
    package var crc32c: UInt32?
    /// For a snapshot: `true` when it decodes, without the schema's repairs, to the model the store held at its
    /// revision: a save wrote it from the model the store held (the state file linked right after a save, or the
    /// initial state written as a save writes it), or a start kept the file it loaded and that load migrated,
    /// salvaged and repaired nothing. A read of the past then skips the repairs (``StateCodec/RepairPolicy``), a
    /// pass over every record that could only make the read differ from the state it had. Absent for any other
    /// snapshot (one a load repaired, one adopted from the directory) and in older manifests: a read repairs
    /// those as a load does.
    package var decodesAsHeld: Bool?

    /// The newest time it holds: its last change's, or when it was archived.
    var newestTime: Date { lastTime ?? archivedTime }
}
