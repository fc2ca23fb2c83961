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

    /// A dropped record.
    public struct DroppedRecord: Codable, Sendable, Equatable {
        /// Its path in the stored file, such as `projects[2].panes[0]`.
        public var path: String
        /// Its id, when one could be read.
        public var id: String?
        /// Why it cannot be read.
        public var reason: String
    }

    /// A converted value.
    public struct CoercedField: Codable, Sendable, Equatable {
        /// Its path in the stored file.
        public var path: String
        /// The stored value, as JSON.
        public var from: String
        /// The value read, as JSON.
        public var to: String
    }

    /// A field that would take its default.
    public struct DefaultedField: Codable, Sendable, Equatable {
        /// Its path in the stored file.
        public var path: String
        /// Why its value cannot be read.
        public var reason: String
    }

    /// What a salvage would change.
    public struct Salvage: Codable, Sendable, Equatable {
        /// Records that would be dropped.
        public var droppedRecords: [DroppedRecord]
        /// Values that would be converted.
        public var coercedFields: [CoercedField]
        /// Fields that would take their default.
        public var defaultedFields: [DefaultedField]

        init(_ report: SalvageReport) {
            droppedRecords = report.droppedRecords.map { DroppedRecord(path: $0.path, id: $0.id, reason: $0.reason) }
            coercedFields = report.coercedFields.map { CoercedField(path: $0.path, from: $0.from, to: $0.to) }
            defaultedFields = report.defaultedFields.map { DefaultedField(path: $0.path, reason: $0.reason) }
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
    /// The migration steps that would run, as `"1→2"`.
    public var steps: [String]
    /// Keys the model does not declare that would be kept, by path, with record counts.
    public var unknownKeysKept: [String: Int]
    /// Missing fields that would take their default, by path, with record counts.
    public var fieldsDefaulted: [String: Int]
    /// Warnings from the migration steps.
    public var warnings: [String]
    /// Repairs that would be made.
    public var repairs: [String]
    /// What a salvage would change, when the file does not load as it is but can be salvaged.
    public var salvage: Salvage?
}
