/// What a load did: where the state came from, which steps ran, what was defaulted, kept, repaired or moved
/// aside, and how long each part took. Meant to be logged as one entry.
public struct LoadReport: Sendable, Equatable {
    /// Where the loaded state came from.
    public enum Source: String, Sendable, Equatable {
        /// The state file.
        case file
        /// There was no state file; the initial state was used.
        case noFile
        /// The file was corrupt and quarantined; the initial state was used.
        case quarantined
        /// The strict decode refused the file and a salvage read what it could (``LoadReport/salvage``); the
        /// original bytes were kept.
        case salvaged
        /// There was no state file; a file at another path was imported (``StateFile/load(importing:)``) and
        /// written as the state file.
        case imported
    }

    /// The state file's path.
    public var path: String
    /// Where the state came from.
    public var source: Source
    /// The version stored in the file; `nil` when no file was read.
    public var storedVersion: Int?
    /// The version this release uses.
    public var currentVersion: Int
    /// Steps that ran, in order.
    public var stepsApplied: [ClosedRange<Int>] = []
    /// Fields filled with defaults, by path, with record counts.
    public var fieldsDefaulted: [String: Int] = [:]
    /// Fields taken back from where a rollback had set them aside, by path, with record counts.
    public var fieldsTakenBack: [String: Int] = [:]
    /// Keys the model does not declare that were kept, by path, with record counts.
    public var unknownKeysKept: [String: Int] = [:]
    /// Keys of the file that the model neither declares nor keeps, by path, with record counts: the next save
    /// drops them (each is in ``warnings`` too, and the first save keeps the original bytes as a backup). Empty
    /// with `@StateModel`'s default, which keeps them; see ``DecodedState/unknownKeysDropped``.
    public var unknownKeysDropped: [String: Int] = [:]
    /// Warnings raised while migrating.
    public var warnings: [String] = []
    /// Repairs made after migrating.
    public var repairs: [String] = []
    /// Whether the file came from a newer release that allows this one to read it.
    public var isNewerCompatible = false
    /// Set when the crash-loop guard set the state file aside before this load (its loads kept not finishing)
    /// and the state came from a backup or started empty; ``StateFileConfiguration/crashedLoadLimit``.
    public var crashedLoad: CrashedLoad?
    /// Why the crash-loop guard could not record this load (the disk is full or read-only, say): the load went
    /// on without it, and a crash during it will not be counted. `nil` when it recorded the load or is off.
    public var crashGuardProblem: String?
    /// The quarantine, when the file was corrupt.
    public var quarantine: Quarantine?
    /// What a salvage dropped, coerced and defaulted, and where the original was kept; `nil` without a salvage.
    public var salvage: SalvageReport?
    /// What an import from another path did (``StateFile/load(importing:)``); `nil` for a plain load.
    public var importResult: ImportResult?
    /// Leftover temporary files removed before loading.
    public var temporaryFilesRemoved: [String] = []
    /// Size of the file read.
    public var byteCount = 0
    /// The lineage the loaded state belongs to (``Lineage``): the stored one continued, or a new one.
    public var lineage = Lineage.random()
    /// The revision the loaded state is at: the stored one (0 for a file that stores none, or no file).
    public var revision: UInt64 = 0
    /// Why ``lineage`` is new instead of the stored one continued; `nil` when the history continues.
    public var lineageBreak: LineageBreak?
    /// The lineage the file stored, whether or not the load continued it; `nil` without a file or a stored
    /// lineage. A change journal continues this one (``JournalReplay``).
    public var storedLineage: Lineage?
    /// Timings of each part.
    public var timings = Timings()
    /// Why the file was read through `Codable` rather than straight into the model (`StateDirectDecodable`);
    /// `nil` when it was read directly, or when there was no file to read.
    public var directReadFallback: String?
    /// What the checksum the file records of its content said (``ContentChecksum``): it matches, the file records
    /// none (an older release wrote it), or it does not match, and the file changed outside the store since its
    /// last save (a person edited it). A mismatch is reported, not refused: the state is the file as it is. `nil`
    /// when no file was read (none, or a quarantined one).
    public var contentChecksum: ContentChecksumOutcome?

    /// A corrupt file moved aside.
    public struct Quarantine: Sendable, Equatable {
        /// The policy that acted.
        public var policy: CorruptFilePolicy
        /// Why the file was judged corrupt.
        public var reason: String
        /// Where its bytes are now.
        public var movedTo: String
        /// The backup the state was restored from instead of the initial state
        /// (``StateFileConfiguration/corruptFileFallback``), by name; `nil` when none loaded, or the fallback is off.
        public var restoredFrom: String? = nil
    }

    /// How long the parts of a load took.
    public struct Timings: Sendable, Equatable {
        /// Reading the bytes.
        public var read: Duration = .zero
        /// Parsing and decoding.
        public var decode: Duration = .zero
        /// Migration steps.
        public var migrate: Duration = .zero
        /// Repairs.
        public var repair: Duration = .zero
        /// The whole load.
        public var total: Duration = .zero
    }

    /// Records what decoding took and found.
    mutating func record<Model>(_ decoded: DecodedState<Model>) {
        storedVersion = decoded.storedVersion
        stepsApplied = decoded.stepsApplied
        fieldsDefaulted = decoded.fieldsDefaulted
        fieldsTakenBack = decoded.fieldsTakenBack
        unknownKeysKept = decoded.unknownKeysKept
        unknownKeysDropped = decoded.unknownKeysDropped
        warnings = decoded.warnings
        repairs = decoded.repairs
        isNewerCompatible = decoded.isNewerCompatible
        timings.decode = decoded.decodeDuration
        timings.migrate = decoded.migrateDuration
        timings.repair = decoded.repairDuration
        directReadFallback = decoded.directReadFallback
        contentChecksum = decoded.contentChecksum
    }

    /// Whether the file changed outside the store since its last save: the checksum it records does not match its
    /// content (``contentChecksum``).
    public var changedOutsideStore: Bool {
        if case .mismatch = contentChecksum { return true }
        return false
    }

    /// Whether any migration step ran.
    public var migrated: Bool { !stepsApplied.isEmpty }

    /// One line for a log or a status: what was loaded and what happened to it.
    public var summary: String {
        guard let crashedLoad else { return outcome }
        return "state file set aside: \(crashedLoad.summary); " + outcome
    }

    /// The summary without the crash-loop guard's part.
    private var outcome: String {
        switch source {
        case .noFile:
            return "no state file at \(path); started from the initial state at version \(currentVersion)"
        case .quarantined:
            let moved = "state file was corrupt and moved to \(quarantine?.movedTo ?? "?")"
            guard let backup = quarantine?.restoredFrom else { return moved + "; started from the initial state" }
            var restored = moved + "; restored from backup \(backup)"
            if let storedVersion, migrated { restored += ", migrated version \(storedVersion) to \(currentVersion)" }
            return restored + " (\(byteCount) bytes)"
        case .file, .imported, .salvaged:
            var parts: [String] = []
            if let salvage {
                let kept = salvage.originalKeptAt.map { "; original kept as \($0)" } ?? ""
                parts.append("salvaged (\(salvage.summary)\(kept))")
            }
            if source == .imported, let importResult {
                parts.append("imported \(importResult.sourcePath)")
            }
            if let storedVersion, migrated {
                parts.append("migrated version \(storedVersion) to \(currentVersion)")
            } else if isNewerCompatible, let storedVersion {
                parts.append("loaded newer version \(storedVersion) (compatible)")
            } else {
                parts.append("loaded version \(currentVersion)")
            }
            if !unknownKeysKept.isEmpty { parts.append("\(unknownKeysKept.count) unknown fields kept") }
            if !unknownKeysDropped.isEmpty { parts.append("\(unknownKeysDropped.count) unknown fields dropped") }
            if !repairs.isEmpty { parts.append("\(repairs.count) repairs") }
            return parts.joined(separator: ", ") + " (\(byteCount) bytes)"
        }
    }
}
