/// The `history` section of docs/benchmarks/results.json (issue 42; Scripts/bench-table.py reads these keys): what
/// the history costs the persistence workloads, the read of a past state against a load, and what renames at 10 a
/// second take in the history and how long the default bound keeps them. Times in seconds.
struct HistoryRow: Codable {
    /// The persistence workloads at one size, history off and on.
    struct Overhead: Codable {
        /// The size asked for.
        var megabytes: Int
        /// The generated file's bytes.
        var fileBytes: Int
        /// Every figure, off and on.
        var figures: HistoryOverhead.Result
        /// The most on ÷ off may be.
        var goal = 1.05
    }

    /// One footprint run and what follows from it.
    struct Footprint: Codable {
        /// The size asked for, in MB.
        var megabytes: Double
        /// What the run left in the history.
        var measured: HistoryFootprint.Result
        /// Segment bytes per change (``HistoryFootprint/Result/bytesPerChange``).
        var bytesPerChange: Double
        /// The hours of changes the default history (64 MiB, 7 days) holds at the least and at the most.
        var defaultLeastHours: Double
        /// See ``defaultLeastHours``.
        var defaultMostHours: Double
        /// ``HistoryRetention``'s least and most hours at the run's own bound, to hold against what the run saw
        /// (``HistoryFootprint/Result/observedLeastSeconds``) when it reached it.
        var boundLeastHours: Double
        /// See ``boundLeastHours``.
        var boundMostHours: Double
        /// The `maximumByteCount` a week of changes at this rate needs, in MiB.
        var weekMebibytes: Double
        /// The manifest once the default history is full, in bytes (it is rewritten at every save).
        var fullManifestBytes: Double
    }

    /// By size.
    var overhead: [Overhead]
    /// The read at ``HistoryReadTiming``'s size; `nil` when not run.
    var read: HistoryRead?
    /// By size.
    var footprint: [Footprint]
}

/// The read of a past state at one size.
struct HistoryRead: Codable {
    /// The size asked for.
    var megabytes: Int
    /// The read and the load.
    var figures: HistoryReadTiming.Result
}
