import StateStore

/// What `workspaced check --json` prints: what loading a state file would do, and what a salvage would drop,
/// coerce and default when it does not load as it is.
package struct CheckReport: Codable, Sendable, Equatable {
    /// The verdict.
    package enum Verdict: String, Codable, Sendable {
        /// The file loads as it is (exit 0).
        case loadable
        /// The file does not load as it is; the `salvage` policy would keep what ``CheckReport/salvage`` says
        /// (exit 65).
        case salvageable
        /// The file cannot be read even by a salvage (exit 65).
        case corrupt
        /// The file is newer than this release can read (exit 75).
        case newer
    }

    /// What a salvage would change.
    package struct Salvage: Codable, Sendable, Equatable {
        /// Records that would be dropped, by path in the stored file, with their ids when readable.
        package var droppedRecords: [SalvageReport.DroppedRecord]
        /// Values that would be converted, as JSON before and after.
        package var coercedFields: [SalvageReport.CoercedField]
        /// Fields that would take their default, with why their value cannot be read.
        package var defaultedFields: [SalvageReport.DefaultedField]

        init(_ report: SalvageReport) {
            droppedRecords = report.droppedRecords
            coercedFields = report.coercedFields
            defaultedFields = report.defaultedFields
        }
    }

    /// The state file.
    package var file: String
    /// There is no state file, and a start serves the initial state with the change journal's changes
    /// (``journal``): what a crash before the first snapshot leaves.
    package var noStateFile: Bool = false
    /// The verdict.
    package var verdict: Verdict
    /// Why the file does not load as it is; `nil` when it does.
    package var problem: String?
    /// The version stored in the file, when it could be read.
    package var storedVersion: Int?
    /// The version this release writes.
    package var targetVersion: Int
    /// Loads of this file that began and never finished (crashed, killed, out of memory, timed out) since the
    /// last one that did: at `crashedLoadLimit` the daemon's next start sets the file aside.
    package var unfinishedLoads: Int = 0
    /// The last time the daemon's crash-loop guard set a state file aside in this directory.
    package var lastCrashedLoad: CrashedLoad? = nil
    /// The lowest version the state can be written down to for an older release (`workspaced migrate --to N`);
    /// `nil` when the file does not load (newer or corrupt).
    package var lowestVersion: Int? = nil
    /// The migration steps that would run, as `"1→2"`.
    package var steps: [String]
    /// Keys the model does not declare that would be kept, by path, with record counts.
    package var unknownKeysKept: [String: Int]
    /// Missing fields that would take their default, by path, with record counts.
    package var fieldsDefaulted: [String: Int]
    /// Fields a rollback had set aside in unknown fields that the migration would take back, by path, with
    /// record counts.
    package var fieldsTakenBack: [String: Int] = [:]
    /// Warnings from the migration steps.
    package var warnings: [String]
    /// Repairs that would be made.
    package var repairs: [String]
    /// What a salvage would change, when the file does not load as it is but can be salvaged.
    package var salvage: Salvage?
    /// The file changed outside the daemon since its last save: the content checksum it records is not its
    /// content's. It loads as it is. `nil` when the checksum matches, the file records none (an older release
    /// wrote it) or it does not load.
    package var changedOutsideDaemon: ChecksumMismatch? = nil
    /// What a start would replay from the change journal beside the file (`nil` when the file does not load).
    package var journal: Journal? = nil
    /// The history beside the file, checked file by file; `nil` when there is none.
    package var history: History? = nil

    /// A content checksum that does not match (`StateStore`'s `ContentChecksum`), both as `crc32c:` and eight hex
    /// digits.
    package struct ChecksumMismatch: Codable, Sendable, Equatable {
        /// The checksum the last save recorded in the file.
        package var recorded: String
        /// The checksum of the file's content as it is.
        package var computed: String
    }

    /// The change journal as a start would replay it.
    package struct Journal: Codable, Sendable, Equatable {
        /// Segment files read.
        package var segments: Int
        /// Their bytes.
        package var bytes: Int
        /// Changes a start would replay onto the file's state.
        package var changesToReplay: Int
        /// The revision the file holds, and the one the state would be at after the replay.
        package var fromRevision: UInt64
        package var toRevision: UInt64
        /// Bytes of a last record a crash cut short (dropped: never acknowledged).
        package var tornBytes: Int
        /// Segments a start would keep aside without replaying them, each with why.
        package var wouldKeepAside: [String]

        package init(_ replay: JournalReplay) {
            segments = replay.segmentsRead
            bytes = replay.byteCount
            changesToReplay = replay.recordsReplayed
            fromRevision = replay.snapshotRevision
            toRevision = replay.revision
            tornBytes = replay.tornTailByteCount
            wouldKeepAside = replay.keptAside.map { "\($0.path): \($0.reason)" }
        }
    }
}
