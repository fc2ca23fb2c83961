import FoundationEssentials
import StateStore

extension CheckReport {
    /// The history beside the state file as `check` found it (``StateStore/StateFile/checkHistory(_:lineage:configuration:)``).
    package struct History: Codable, Sendable, Equatable {
        /// A file that failed its check.
        package struct Damage: Codable, Sendable, Equatable {
            /// The file.
            package var path: String
            /// What is wrong with it.
            package var reason: String
        }

        /// The history directory.
        package var directory: String
        /// The oldest revision whose state it can give; `nil` before it holds a snapshot.
        package var oldestRevision: UInt64?
        /// When that snapshot was taken.
        package var oldestTime: Date?
        /// Snapshots kept.
        package var snapshots: Int
        /// Journal segments kept.
        package var segments: Int
        /// Every file, the manifest included.
        package var files: Int
        /// Their bytes.
        package var bytes: Int
        /// Earlier epochs (before a restore, quarantine, salvage or import) still kept.
        package var olderEpochs: Int
        /// Files that failed their check: the daemon still starts and serves every read that does not need them.
        package var damaged: [Damage]

        /// The report of `status`.
        package init(_ status: HistoryStatus) {
            directory = status.directory
            oldestRevision = status.oldestRevision
            oldestTime = status.oldestDate
            snapshots = status.snapshotCount
            segments = status.segmentCount
            files = status.fileCount
            bytes = status.byteCount
            olderEpochs = status.olderEpochs.count
            damaged = status.damaged.map { Damage(path: $0.path, reason: $0.reason) }
        }

        /// The lines `check` prints.
        var lines: [String] {
            var lines = [
                "history: "
                    + (oldestRevision.map { "revisions from \($0)" } ?? "no snapshot yet")
                    + " (\(snapshots) snapshot(s), \(segments) segment(s), \(files) file(s), \(bytes) bytes"
                    + (olderEpochs > 0 ? ", \(olderEpochs) earlier epoch(s)" : "") + ") in \(directory)"
            ]
            lines += damaged.map { "history: damaged \($0.path): \($0.reason)" }
            return lines
        }
    }
}
