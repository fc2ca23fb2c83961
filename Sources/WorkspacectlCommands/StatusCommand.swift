import ArgumentParser
import WorkspaceAPI

/// `workspacectl status`: what an operator reads first.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the daemon's health: versions, state file, revisions, saves, uptime.")

    @OptionGroup(title: ConnectionOptions.title) var connection: ConnectionOptions

    func run() async throws {
        try await connection.perform({ try await $0.status() }) {
            Self.render($0)
        }
    }

    /// The status as aligned `label  value` lines.
    static func render(_ status: StatusResponse) -> String {
        let unsaved = status.revision > status.durableRevision ? status.revision - status.durableRevision : 0
        var rows: [(String, String)] = [
            ("daemon", "workspaced \(status.daemonVersion), schema version \(status.schemaVersion)"),
            ("state file", status.statePath),
            (
                "revision",
                "\(status.revision) (durable \(status.durableRevision))"
                    + (status.lineage.map { ", lineage \($0)" } ?? "")
            ),
            ("dirty", dirtyLine(status, unsaved: unsaved)),
        ]
        rows += journalRows(status)
        rows += historyRows(status)
        rows += replicaRows(status)
        rows += scrubRows(status)
        if let saved = status.lastSaveAt {
            let took = status.lastSaveMilliseconds.map { String(format: ", took %.1f ms", $0) } ?? ""
            rows.append(("last save", Formatting.moment(saved) + took))
        } else {
            rows.append(("last save", "none since start"))
        }
        if let error = status.lastError {
            let when =
                status.savesFailingSince.map { " (failing since " + Formatting.moment($0) + ")" }
                ?? status.lastErrorAt.map { " at " + Formatting.moment($0) } ?? ""
            rows.append(("last error", "\(error)\(when), \(status.consecutiveFailures) failed save(s) in a row"))
        } else {
            rows.append(("last error", "none"))
        }
        rows += loadRows(status)
        for (index, warning) in (status.configurationWarnings ?? []).enumerated() {
            rows.append((index == 0 ? "config" : "", warning))
        }
        rows.append(("saves", "\(status.savesPerformed) performed, \(status.changesCoalesced) change(s) coalesced"))
        rows.append(("uptime", Formatting.duration(status.uptimeSeconds)))
        rows += secretsRows(status)
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }
            .joined(separator: "\n")
    }

    /// Whether changes wait for a snapshot, and where they are meanwhile.
    static func dirtyLine(_ status: StatusResponse, unsaved: UInt64) -> String {
        guard status.dirty else { return "no, the state file holds everything" }
        guard let journal = status.journal else { return "yes, \(unsaved) revision(s) not yet on disk" }
        let pending = status.revision > journal.snapshotRevision ? status.revision - journal.snapshotRevision : 0
        return "yes, \(pending) change(s) in the journal, not yet in the state file"
    }

    /// The change journal (absent from a daemon without one).
    static func journalRows(_ status: StatusResponse) -> [(String, String)] {
        guard let journal = status.journal else { return [] }
        var rows: [(String, String)] = []
        if let failing = journal.failing {
            rows.append(("journal", "FAILING, changes are answered 503 until a snapshot is durable: \(failing)"))
        }
        let compacted = journal.lastCompactionAt.map { ", compacted " + Formatting.moment($0) } ?? ""
        rows.append(
            (
                journal.failing == nil ? "journal" : "",
                "\(journal.records) change(s) since the snapshot of revision \(journal.snapshotRevision), "
                    + "\(journal.segments) segment(s), \(journal.bytes) bytes; on the device up to "
                    + "\(journal.syncedRevision) (\(journal.syncs) sync(s))\(compacted)"
            ))
        if journal.recordsReplayedAtStart > 0, let replayed = journal.replayedAtStart {
            rows.append(("replayed", replayed))
        }
        return rows
    }

    /// The history kept to go back in time: from which revision, on how much disk, and the files that failed
    /// their check; "none kept" when it is off (or the daemon has none).
    static func historyRows(_ status: StatusResponse) -> [(String, String)] {
        guard let history = status.history else { return [("history", "none kept")] }
        let from =
            history.oldestRevision.map { revision in
                "from revision \(revision)" + (history.oldestTime.map { " (" + Formatting.moment($0) + ")" } ?? "")
            } ?? "empty so far"
        var rows = [
            (
                "history",
                "\(from), \(history.snapshots) snapshot(s) and \(history.segments) segment(s), \(history.bytes) of "
                    + "\(history.maximumBytes) bytes, kept \(Formatting.duration(Double(history.keepSeconds))); "
                    + history.directory
            )
        ]
        for damage in history.damaged {
            rows.append(("", "DAMAGED \(damage.path): \(damage.reason)"))
        }
        return rows
    }

    /// The scrub: when it last passed, and each file the last one found damaged; nothing from a daemon without it.
    static func scrubRows(_ status: StatusResponse) -> [(String, String)] {
        guard let scrub = status.scrub else { return [] }
        let schedule = scrub.intervalHours > 0 ? "every \(scrub.intervalHours) h" : "on request only"
        guard let ran = scrub.lastRunAt else {
            return [("scrub", "not run yet (\(schedule))" + (scrub.running ? ", running now" : ""))]
        }
        var rows: [(String, String)] = []
        if scrub.damaged.isEmpty {
            rows.append(
                ("scrub", "passed \(Formatting.moment(ran)), \(scrub.filesChecked) file(s) checked (\(schedule))"))
        } else {
            let success = scrub.lastSuccessAt.map { "last passed " + Formatting.moment($0) } ?? "never passed"
            rows.append(
                ("scrub", "FOUND \(scrub.damaged.count) DAMAGED \(Formatting.moment(ran)), \(success) (\(schedule))"))
            for damage in scrub.damaged { rows.append(("", "DAMAGED \(damage.path): \(damage.reason)")) }
        }
        return rows
    }

    /// Replication off the host: where, who writes, how far the replica reaches and lags, the last error; "off"
    /// when it is (or the daemon has none).
    static func replicaRows(_ status: StatusResponse) -> [(String, String)] {
        guard let replica = status.replica else { return [("replica", "off")] }
        var rows = [("replica", replica.url + (replica.encryption == "none" ? " (NOT ENCRYPTED)" : ""))]
        if let holder = replica.heldBy {
            rows.append(
                (
                    "",
                    "held by \(holder)" + (replica.heldByHost.map { " (\($0))" } ?? "")
                        + ": serving locally, not replicating; `workspaced replica takeover` moves the lease"
                ))
        }
        let reached =
            replica.replicatedRevision.map { revision in
                "revision \(revision)" + (replica.replicatedTime.map { " (" + Formatting.moment($0) + ")" } ?? "")
            } ?? "nothing yet"
        let lag =
            replica.lagRevisions == 0
            ? "caught up"
            : "\(replica.lagRevisions) revision(s) behind"
                + (replica.lagSeconds.map { String(format: ", up to %.1f s", $0) } ?? "")
        rows.append(("", "replicated \(reached); \(lag)"))
        if let error = replica.lastError {
            rows.append(("", "FAILING (\(replica.consecutiveFailures) pass(es) in a row): \(error)"))
        }
        if replica.heldBytes > 0 {
            rows.append(
                (
                    "",
                    "local history keeps \(replica.heldBytes) bytes the replica lacks (at most "
                        + "\(replica.localMaximumBytes), replica.localMaximumBytes)"
                ))
        }
        if replica.prunedUnreplicatedBytes > 0 {
            rows.append(
                (
                    "",
                    "PRUNED \(replica.prunedUnreplicatedBytes) bytes the replica lacked"
                        + (replica.prunedUnreplicatedRevision.map { ", up to revision \($0)" } ?? "")
                        + (replica.prunedUnreplicatedAt.map { " (last " + Formatting.moment($0) + ")" } ?? "")
                        + ": a restore cannot reach those states"
                ))
        }
        return rows
    }

    /// The installation and the secret store (absent from a daemon without them).
    static func secretsRows(_ status: StatusResponse) -> [(String, String)] {
        var rows: [(String, String)] = []
        if let installation = status.installation {
            rows.append(
                (
                    "installation",
                    "\(installation.id), first started \(Formatting.moment(installation.firstStartedAt)) by "
                        + installation.firstRelease
                ))
        } else if status.secrets != nil {
            rows.append(("installation", "unknown (the secret store and installation.json cannot be read)"))
        }
        guard let secrets = status.secrets else { return rows }
        let key = secrets.keySource.map { source in
            "key from the \(source == "key-file" ? "key file" : source)" + (secrets.keyId.map { " (\($0))" } ?? "")
        }
        if secrets.state == "enabled" {
            let tokens = secrets.activeTokens.map { ", \($0) active token(s)" } ?? ""
            rows.append(("secrets", "enabled, \(key ?? "key unknown")\(tokens)"))
        } else {
            rows.append(("secrets", "DISABLED, token authentication is off: \(secrets.reason ?? "no reason given")"))
            if let key { rows.append(("", key)) }
        }
        return rows
    }
}
