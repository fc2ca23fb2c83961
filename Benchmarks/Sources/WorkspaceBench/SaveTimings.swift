import Foundation

/// Saves of a loaded workspace, opened with its change journal as the daemon opens it, driven by a manual clock
/// so that the instant a save starts is known: the owner's share of each save (the lock held while the timer
/// callback takes the snapshot and starts the journal's next segment), the first change made while the save holds
/// the snapshot, and the save from the timer to the state file's durable save (``SaveSignal``: the journal makes
/// the revision durable sooner), each round against an encode + durable write of the same state run just before
/// it.
struct SaveTimings {
    /// The medians of the rounds, in seconds.
    struct Result {
        var save: Double
        var encodeAndWrite: Double
        var ownerBlocked: Double
        var ownerBlockedWorst: Double
        var timerCallback: Double
        var firstChangeDuringSave: Double
        var ordinaryChange: Double
        var pairedRatio: Double
    }

    let path: String
    let rounds: Int

    /// Loads the state file at `path` as the daemon does and measures `rounds` saves.
    func run() throws -> Result {
        let session = try SaveSession(path: path)
        defer { session.close() }
        for round in 0..<max(1, rounds) { try session.round(round) }
        return session.result
    }
}
