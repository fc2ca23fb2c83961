/// One size's persistence figures, as the `persistence` section of docs/benchmarks/results.json holds them (a
/// chart script reads exactly these keys); times in seconds.
struct PersistenceRow: Codable {
    var megabytes: Int
    var fileBytes: Int
    /// A save, timer → durable acknowledgement (median).
    var saveSeconds: Double
    /// An encode + durable write of the same state (median), the divisor of the save and the dirty SIGTERM.
    var encodeAndWriteSeconds: Double
    var saveRatio: Double
    var saveGoal = 1.10
    /// The lock held while a save takes its snapshot (median).
    var ownerBlockedSeconds: Double
    var ownerBlockedGoal = 0.001
    /// File writes under 10,000 changes/s for 10 s, the final save included.
    var fileWrites: Int
    var fileWritesGoal = 3
    /// The release daemon's SIGTERM → exit with an acknowledged, unsaved change (median).
    var sigtermDirtySeconds: Double
    var sigtermDirtyRatio: Double
    var sigtermDirtyGoal = 1.2
    /// The release daemon's SIGTERM → exit with nothing pending (median).
    var sigtermCleanSeconds: Double
    var sigtermCleanGoal = 0.020
}
