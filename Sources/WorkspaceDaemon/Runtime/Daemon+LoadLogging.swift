import Logging
import StateStore

extension Daemon {
    /// Logs the load report as one entry (loaded or migrated), then one warning per quarantine, step warning and
    /// repair, and one for a file that changed outside the daemon since its last save, each with its MESSAGE_ID.
    func logLoadReport(_ report: LoadReport) {
        var fields: Logger.Metadata = [
            "state_path": "\(report.path)", "source": "\(report.source.rawValue)",
            "to_version": "\(report.currentVersion)", "bytes": "\(report.byteCount)",
            "duration_ms": "\(Self.milliseconds(report.timings.total))",
        ]
        if let stored = report.storedVersion {
            fields["from_version"] = "\(stored)"
            // How the bytes were read: straight into the model, or through Codable and why (a file the direct
            // reader leaves to Codable, such as a damaged or newer one, loads as before, only slower).
            fields["reader"] = report.directReadFallback == nil ? "direct" : "codable"
            if let reason = report.directReadFallback { fields["reader_fallback"] = "\(reason)" }
        }
        if !report.stepsApplied.isEmpty {
            fields["steps"] =
                "\(report.stepsApplied.map { "\($0.lowerBound)->\($0.upperBound)" }.joined(separator: ","))"
        }
        if !report.fieldsDefaulted.isEmpty {
            fields["defaulted"] =
                "\(report.fieldsDefaulted.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","))"
        }
        if !report.unknownKeysKept.isEmpty {
            fields["unknown_keys"] = "\(report.unknownKeysKept.keys.sorted().joined(separator: ","))"
        }
        if !report.repairs.isEmpty { fields["repairs"] = "\(report.repairs.count)" }
        fields["lineage"] = "\(report.lineage)"
        fields["revision"] = "\(report.revision)"
        if let lineageBreak = report.lineageBreak { fields["lineage_break"] = "\(lineageBreak.rawValue)" }
        if !report.temporaryFilesRemoved.isEmpty {
            fields["temporary_files_removed"] = "\(report.temporaryFilesRemoved.joined(separator: ","))"
        }
        let event: DaemonEvent = report.migrated ? .migrated : .loaded
        logger.notice("\(report.summary)", metadata: event.metadata(fields))
        if let lineageBreak = report.lineageBreak, report.source == .file {
            // Only a file that was there and loaded is news here; no file, a quarantine, a salvage and an import
            // are logged on their own.
            let message =
                "state continues as new lineage \(report.lineage) at revision \(report.revision): \(lineageBreak); "
                + "ETags read before are refused (412)"
            logger.notice(
                "\(message)",
                metadata: DaemonEvent.lineageStarted.metadata([
                    "state_path": "\(report.path)", "lineage": "\(report.lineage)",
                    "revision": "\(report.revision)", "lineage_break": "\(lineageBreak.rawValue)",
                ]))
        }
        if case .mismatch(let recorded, let computed) = report.contentChecksum {
            // Edited by a person, most likely: news for the operator, not damage (the file loaded as it is).
            let message =
                "state file \(report.path) changed outside the daemon since its last save (its content checksum is "
                + "\(computed), the save recorded \(recorded)); it loaded as it is, and the next save records a new "
                + "checksum"
            logger.warning(
                "\(message)",
                metadata: DaemonEvent.changedOutsideDaemon.metadata([
                    "state_path": "\(report.path)", "recorded_checksum": "\(recorded)",
                    "computed_checksum": "\(computed)",
                ]))
        }
        if let problem = report.crashGuardProblem {
            logger.warning(
                "the crash-loop guard could not record this load, which went on without it: \(problem)",
                metadata: ["state_path": "\(report.path)"])
        }
        if let crash = report.crashedLoad {
            logger.error(
                "state file set aside: \(crash.summary)",
                metadata: DaemonEvent.crashedLoad.metadata([
                    "state_path": "\(report.path)", "attempts": "\(crash.attempts)",
                    "quarantine_path": "\(crash.movedTo)", "restored_from": "\(crash.restoredFrom ?? "")",
                ]))
        }
        if let quarantine = report.quarantine {
            let serving = quarantine.restoredFrom.map { "restored from backup \($0)" } ?? "starting empty"
            logger.warning(
                "state file was corrupt (\(quarantine.reason)); moved to \(quarantine.movedTo), \(serving)",
                metadata: DaemonEvent.quarantined.metadata([
                    "state_path": "\(report.path)", "quarantine_path": "\(quarantine.movedTo)",
                    "reason": "\(quarantine.reason)", "policy": "\(quarantine.policy.rawValue)",
                ]))
            if let backup = quarantine.restoredFrom {
                let message =
                    "the state came from backup \(backup), not from the corrupt file: changes made after that backup "
                    + "are only in \(quarantine.movedTo)"
                logger.error(
                    "\(message)",
                    metadata: DaemonEvent.restoredFromBackup.metadata([
                        "state_path": "\(report.path)", "quarantine_path": "\(quarantine.movedTo)",
                        "restored_from": "\(backup)",
                    ]))
            }
        }
        if let salvage = report.salvage {
            logSalvage(salvage, path: report.path)
        }
        for warning in report.warnings {
            logger.warning(
                "migration: \(warning)", metadata: DaemonEvent.migrated.metadata(["state_path": "\(report.path)"]))
        }
        for repair in report.repairs {
            logger.warning(
                "repaired: \(repair)", metadata: DaemonEvent.repaired.metadata(["state_path": "\(report.path)"]))
        }
    }

    /// Logs a salvage as one warning with its MESSAGE_ID and counts; every change is in the load report and in
    /// `workspaced check`, and the first few are named here.
    func logSalvage(_ salvage: SalvageReport, path: String) {
        let named = salvage.details.prefix(5).joined(separator: "; ")
        let more = salvage.details.count > 5 ? "; and \(salvage.details.count - 5) more" : ""
        let message =
            "state file did not load as it was (\(salvage.reason)); salvaged: \(salvage.summary); original kept at "
            + "\(salvage.originalKeptAt ?? "?"): \(named)\(more)"
        logger.warning(
            "\(message)",
            metadata: DaemonEvent.salvaged.metadata([
                "state_path": "\(path)", "original_path": "\(salvage.originalKeptAt ?? "")",
                "reason": "\(salvage.reason)", "changes": "\(salvage.changeCount)",
                "dropped_records": "\(salvage.droppedRecords.count)",
                "coerced_fields": "\(salvage.coercedFields.count)",
                "defaulted_fields": "\(salvage.defaultedFields.count)",
            ]))
    }

    /// Logs why a load was refused, before the daemon exits.
    /// Logs what the start did with the change journal: nothing after a clean stop, the changes a crash left
    /// (notice), and any segment kept aside (error: its changes are not in the state).
    func logJournalReplay(_ replay: JournalReplay, path: String) {
        if replay.recordsReplayed > 0 || replay.tornTailByteCount > 0 {
            logger.notice(
                "\(replay)",
                metadata: DaemonEvent.journalReplayed.metadata([
                    "state_path": "\(path)", "records": "\(replay.recordsReplayed)",
                    "from_revision": "\(replay.snapshotRevision)", "revision": "\(replay.revision)",
                    "torn_bytes": "\(replay.tornTailByteCount)",
                    "duration_ms": "\(Self.milliseconds(replay.duration))",
                ]))
        }
        for aside in replay.keptAside {
            logger.error(
                "change journal segment \(aside.path) not replayed: \(aside.reason); kept as \(aside.movedTo ?? "-")",
                metadata: DaemonEvent.journalKeptAside.metadata([
                    "state_path": "\(path)", "segment_path": "\(aside.path)",
                    "kept_as": "\(aside.movedTo ?? "")", "reason": "\(aside.reason)",
                ]))
        }
    }

    /// Logs the history kept at the start.
    func logHistory(_ history: HistoryStatus, path: String) {
        let oldest = history.oldestRevision.map { "revisions from \($0)" } ?? "no snapshot yet"
        logger.info(
            "history: \(oldest), \(history.fileCount) file(s), \(history.byteCount) bytes in \(history.directory)")
        logHistoryDamage(history, path: path)
    }

    /// Logs each history file that failed its check (never fatal: the reads that need it fail, naming it).
    func logHistoryDamage(_ history: HistoryStatus, path: String) {
        for damage in history.damaged {
            logger.error(
                "history file \(damage.path) is damaged: \(damage.reason); reads of the past that need it fail",
                metadata: DaemonEvent.historyDamaged.metadata([
                    "state_path": "\(path)", "history_path": "\(damage.path)", "reason": "\(damage.reason)",
                ]))
        }
    }

    func logRefusal(_ error: StateStoreError, path: String) {
        switch error {
        case .newerVersion(_, let stored, let minReader, let current):
            logger.error(
                "\(error)",
                metadata: DaemonEvent.refusedNewerFile.metadata([
                    "state_path": "\(path)", "stored_version": "\(stored)",
                    "min_reader_version": "\(minReader.map(String.init) ?? "none")", "current_version": "\(current)",
                ]))
        default:
            logger.error("\(error)", metadata: ["state_path": "\(path)"])
        }
    }

    /// Logs what the persistence engine reports: failures at error, recoveries at notice, saves at debug.
    static func log(_ event: PersistenceEvent, path: String, logger: Logger) {
        switch event {
        case .saved(let revision, let duration, let bytes):
            logger.debug("saved revision \(revision) (\(bytes) bytes in \(duration))")
        case .saveFailed(let error, let failures, let retryIn):
            let retry = retryIn.map { "retrying in \($0)" } ?? "not retrying"
            logger.error(
                "save failed (\(failures) in a row), \(retry): \(error)",
                metadata: DaemonEvent.saveFailed.metadata([
                    "state_path": "\(path)", "error": "\(error)", "failures": "\(failures)",
                ]))
        case .saveRecovered(let revision, let failures):
            logger.notice(
                "save recovered after \(failures) failures; revision \(revision) is on disk",
                metadata: DaemonEvent.saveRecovered.metadata([
                    "state_path": "\(path)", "failures": "\(failures)", "revision": "\(revision)",
                ]))
        case .journalFailed(let error):
            logger.error(
                "change journal failed, changes are answered 503 until a snapshot is durable: \(error)",
                metadata: DaemonEvent.journalFailed.metadata(["state_path": "\(path)", "error": "\(error)"]))
        case .journalResumed(let revision):
            logger.notice(
                "change journal works again after the snapshot of revision \(revision)",
                metadata: DaemonEvent.journalResumed.metadata(["state_path": "\(path)", "revision": "\(revision)"]))
        }
    }

    static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
