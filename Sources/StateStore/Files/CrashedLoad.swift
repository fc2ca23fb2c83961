import FoundationEssentials

/// What the crash-loop guard did at a load: the state file had begun loading ``attempts`` times without the load
/// finishing (``StateFile/finishedLoading()`` never ran: the process crashed, was killed, ran out of memory or
/// timed out while loading), so it was set aside instead of being loaded again.
public struct CrashedLoad: Sendable, Equatable, Codable {
    /// How many loads of the file began and never finished.
    public var attempts: Int
    /// Where the file's bytes were kept (a quarantined copy, `<name>.corrupt-<UTC timestamp>`).
    public var movedTo: String
    /// The backup the state was restored from (its name), newest first among those that load; `nil` when none
    /// loaded and the state started empty.
    public var restoredFrom: String?
    /// When the guard fired.
    public var at: Date

    /// One line: `loading it failed 3 times; moved to …; restored from …`.
    public var summary: String {
        "its load never finished \(attempts) times in a row (crashed, killed, out of memory or timed out); moved "
            + "to \(movedTo); "
            + (restoredFrom.map { "restored from backup \($0)" } ?? "no backup loads: started empty")
    }
}

/// The record of loads in progress, kept durably next to the state file (`.<name>.loading`): which file was
/// being loaded, how many loads of it began without finishing, and the last time the guard fired.
struct LoadAttemptRecord: Codable, Equatable {
    /// The file being loaded, by size and modification time; `nil` when no load is in progress.
    var size: Int?
    var modified: Double?
    /// Loads of that file that began and did not finish.
    var attempts: Int
    /// The last time the guard set a file aside, for `check` and the status.
    var lastCrash: CrashedLoad?

    func isSame(as attributes: FileAttributes?) -> Bool {
        guard let attributes, let size, let modified else { return false }
        return size == attributes.size && modified == attributes.modificationDate.timeIntervalSince1970
    }
}
