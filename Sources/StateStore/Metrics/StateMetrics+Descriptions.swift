extension StateMetrics {
    /// A figure the state reports: its full name, its Prometheus type and what it counts.
    public struct Figure: Sendable, Equatable {
        /// The name, prefix included (`state_store_saves_total`).
        public var name: String
        /// `counter`, `gauge` or `histogram`.
        public var type: String
        /// One sentence for a `# HELP` line.
        public var help: String
    }

    /// Every figure a state reports under `prefix`, with its help text: for a backend that wants help lines
    /// (swift-metrics carries none) and for documentation.
    public static func descriptions(prefix: String) -> [Figure] {
        Self.table.map { Figure(name: "\(prefix)_\($0.0)", type: $0.1, help: $0.2) }
    }

    /// (suffix, type, help) of every figure.
    static let table: [(String, String, String)] = [
        ("applied_changes_total", "counter", "Changes applied to the state in memory."),
        ("revision", "gauge", "The state's current revision."),
        ("durable_revision", "gauge", "The newest revision on the device (state file or change journal)."),
        ("saved_revision", "gauge", "The revision the state file on disk holds."),
        ("saves_total", "counter", "Saves of the state file that succeeded."),
        (
            "save_duration_seconds", "histogram",
            "How long each save of the state file took (write, fsync, rename, directory fsync)."
        ),
        ("save_failures_total", "counter", "Saves of the state file that failed (each is retried)."),
        (
            "save_failures_by_errno_total", "counter",
            "Saves of the state file that failed, by the errno of the call that failed (none: no call failed)."
        ),
        ("state_file_bytes", "gauge", "The size of the state file as last saved."),
        ("journal_appends_total", "counter", "Changes appended to the change journal."),
        (
            "journal_sync_duration_seconds", "histogram",
            "How long each group sync (fdatasync) of the change journal took."
        ),
        ("journal_sync_group_size", "histogram", "Changes each group sync of the change journal made durable."),
        (
            "journal_failures_total", "counter",
            "Times the change journal failed; changes are refused until a snapshot is durable."
        ),
        ("journal_bytes", "gauge", "The change journal's bytes, at its last sync."),
        ("journal_segments", "gauge", "The change journal's segment files, at its last sync."),
        (
            "load_info", "gauge",
            "Always 1: where the last load's state came from (file, migrated, salvaged, quarantined, restored, "
                + "imported, none)."
        ),
        ("load_duration_seconds", "gauge", "How long the last load of the state file took."),
        ("load_migration_steps", "gauge", "Migration steps the last load applied."),
        ("load_salvaged_records", "gauge", "Records and fields the last load's salvage dropped, coerced or defaulted."),
        (
            "crash_loop_guard_trips_total", "counter",
            "Loads that set the state file aside because earlier loads of it never finished."
        ),
    ]
}
