import StateStore

/// What `workspaced check --json` prints: what loading a state file would do, and what a salvage would drop,
/// coerce and default when it does not load as it is.
public struct CheckReport: Codable, Sendable, Equatable {
    /// The verdict.
    public enum Verdict: String, Codable, Sendable {
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
    public struct Salvage: Codable, Sendable, Equatable {
        /// Records that would be dropped, by path in the stored file, with their ids when readable.
        public var droppedRecords: [SalvageReport.DroppedRecord]
        /// Values that would be converted, as JSON before and after.
        public var coercedFields: [SalvageReport.CoercedField]
        /// Fields that would take their default, with why their value cannot be read.
        public var defaultedFields: [SalvageReport.DefaultedField]

        init(_ report: SalvageReport) {
            droppedRecords = report.droppedRecords
            coercedFields = report.coercedFields
            defaultedFields = report.defaultedFields
        }
    }

    /// The state file.
    public var file: String
    /// The verdict.
    public var verdict: Verdict
    /// Why the file does not load as it is; `nil` when it does.
    public var problem: String?
    /// The version stored in the file, when it could be read.
    public var storedVersion: Int?
    /// The version this release writes.
    public var targetVersion: Int
    /// Loads of this file that began and never finished (crashed, killed, out of memory, timed out) since the
    /// last one that did: at `crashedLoadLimit` the daemon's next start sets the file aside.
    public var unfinishedLoads: Int = 0
    /// The last time the daemon's crash-loop guard set a state file aside in this directory.
    public var lastCrashedLoad: CrashedLoad? = nil
    /// The lowest version the state can be written down to for an older release (`workspaced migrate --to N`);
    /// `nil` when the file does not load (newer or corrupt).
    public var lowestVersion: Int? = nil
    /// The migration steps that would run, as `"1→2"`.
    public var steps: [String]
    /// Keys the model does not declare that would be kept, by path, with record counts.
    public var unknownKeysKept: [String: Int]
    /// Missing fields that would take their default, by path, with record counts.
    public var fieldsDefaulted: [String: Int]
    /// Fields a rollback had set aside in unknown fields that the migration would take back, by path, with
    /// record counts.
    public var fieldsTakenBack: [String: Int] = [:]
    /// Warnings from the migration steps.
    public var warnings: [String]
    /// Repairs that would be made.
    public var repairs: [String]
    /// What a salvage would change, when the file does not load as it is but can be salvaged.
    public var salvage: Salvage?
}
