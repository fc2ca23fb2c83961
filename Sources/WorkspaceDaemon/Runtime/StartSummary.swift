import StateStore

/// The one line that says where the served state came from, for the ready `STATUS=` and `/v1/status`: the load
/// report's summary, with the changes the start replayed from the change journal.
///
/// After a crash before the first snapshot there is no state file, yet the state is the journal's changes: the
/// line says so instead of "started from the initial state".
enum StartSummary {
    /// `report`'s summary, or what the replay made of it.
    static func line(_ report: LoadReport, replay: JournalReplay?) -> String {
        guard let replay, replay.recordsReplayed > 0 else { return report.summary }
        let count = replay.recordsReplayed
        let changes = "replayed \(count) change\(count == 1 ? "" : "s") from the change journal"
        guard report.source != .noFile else {
            return "no state file at \(report.path); \(changes) onto the initial state (revision \(replay.revision))"
        }
        return report.summary + "; \(changes) (revision \(replay.revision))"
    }
}
