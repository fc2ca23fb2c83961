import Dispatch
import FoundationEssentials
import StateStore
import WorkspaceAPI
import WorkspaceModel

extension ControlAPI {
    /// `/v1/status` from the engine's status.
    func statusResponse() -> StatusResponse {
        let status = state.status
        // Read once: the history's part and the replica's both need it.
        let history = state.historyStatus
        let seconds = uptime().components
        return StatusResponse(
            daemonVersion: Self.daemonVersion,
            schemaVersion: state.file.codec.schema.currentVersion,
            statePath: statePath,
            revision: status.revision,
            durableRevision: status.durableRevision,
            dirty: status.isDirty,
            lastSaveAt: status.lastSaveDate,
            lastSaveMilliseconds: status.lastSaveDuration.map {
                Double($0.components.seconds) * 1000 + Double($0.components.attoseconds) / 1e15
            },
            lastError: status.lastError.map { "\($0)" },
            lastErrorAt: status.lastErrorDate,
            consecutiveFailures: status.consecutiveFailures,
            savesPerformed: status.savesPerformed,
            changesCoalesced: status.changesCoalesced,
            uptimeSeconds: Double(seconds.seconds) + Double(seconds.attoseconds) / 1e18,
            installation: installationStatus(), secrets: secretsStatus(),
            load: load.map {
                var status = LoadStatus(
                    report: $0.report, loadedAt: $0.loadedAt, backupPath: state.file.preMigrationBackupPath)
                status.summary = StartSummary.line($0.report, replay: state.journalReplay)
                return status
            },
            savesFailingSince: status.lastError == nil ? nil : savesFailingSince(),
            lineage: state.lineage.rawValue, configurationWarnings: configurationWarnings(),
            journal: journalStatus(status), history: history.map(Self.historyResponse),
            replica: replica?.statusResponse(revision: status.revision, history: history), scrub: scrub?.status)
    }

    /// The history's part of the status.
    private static func historyResponse(_ history: HistoryStatus) -> HistoryStatusResponse {
        HistoryStatusResponse(
            directory: history.directory, oldestRevision: history.oldestRevision, oldestTime: history.oldestDate,
            files: history.fileCount, bytes: history.byteCount, snapshots: history.snapshotCount,
            segments: history.segmentCount,
            damaged: history.damaged.map { HistoryStatusResponse.Damage(path: $0.path, reason: $0.reason) },
            keepSeconds: history.configuration.keepSeconds, maximumBytes: history.configuration.maximumByteCount)
    }

    /// The change journal's part of the status; `nil` for a state without one.
    private func journalStatus(_ status: PersistenceStatus) -> JournalStatusResponse? {
        guard let journal = state.journalStatus else { return nil }
        let replay = state.journalReplay
        return JournalStatusResponse(
            segments: journal.segmentCount, bytes: journal.byteCount, records: journal.recordCount,
            snapshotRevision: status.savedRevision, appendedRevision: journal.appendedRevision,
            syncedRevision: journal.syncedRevision, syncs: journal.syncsPerformed,
            lastCompactionAt: journal.lastCompactionDate, failing: journal.failure.map { "\($0)" },
            replayedAtStart: replay.map { "\($0)" }, recordsReplayedAtStart: replay?.recordsReplayed ?? 0)
    }

    /// Saves now and returns once everything accepted is durable (the flush blocks a Dispatch thread, not the
    /// cooperative pool).
    func flush() async throws {
        let result: Result<Void, PersistenceError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { [state] in
                do throws(PersistenceError) {
                    try state.flushSynchronously()
                    continuation.resume(returning: .success(()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        do {
            try result.get()
        } catch {
            throw APIFailure(error)
        }
    }
}
