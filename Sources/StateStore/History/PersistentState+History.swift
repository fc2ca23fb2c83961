import FoundationEssentials

/// The model at `through`: the snapshot `base` decodes (at `from`, unchecked) with the history's changes after it
/// replayed; `checkBase` checks the snapshot's bytes meanwhile.
typealias HistoryReplayer<Model> =
    @Sendable (
        _ checkBase: @escaping @Sendable () throws(HistoryError) -> Void,
        _ segments: @escaping @Sendable () throws(HistoryError) -> [(segment: HistorySegment, limit: UInt64?)],
        _ from: UInt64, _ through: UInt64, _ base: () throws(HistoryError) -> Model
    ) throws(HistoryError) -> Model

extension PersistentState {
    /// The model as it was at `revision`: the newest history snapshot at or before it (migrated, when an older
    /// release wrote it, by the same steps as a load), with the journal's changes replayed up to it. Reads files:
    /// call it off an event loop. The current revision is answered from memory.
    ///
    /// - Throws: ``HistoryError``: ``HistoryError/disabled`` without history, ``HistoryError/pruned(revision:oldestRevision:)``
    ///   before the oldest kept, ``HistoryError/notReached(revision:currentRevision:)`` after the current one,
    ///   ``HistoryError/damaged(path:reason:)`` when a file the read needs fails its check.
    public func model(atRevision revision: UInt64) throws(HistoryError) -> Model {
        guard let history, let historyReplayer else { throw .disabled }
        let (current, currentRevision) = snapshot
        if revision == currentRevision { return current }
        guard revision < currentRevision else {
            throw .notReached(revision: revision, currentRevision: currentRevision)
        }
        // The snapshot's checksum is checked, and the segments are read and their records scanned, by the
        // replay's helper while this thread reads and decodes the snapshot.
        let plan = history.beginPastRead(lineage: lineage.rawValue, atOrBefore: revision)
        defer { history.endPastRead() }
        guard let base = plan.snapshot else {
            throw .pruned(revision: revision, oldestRevision: plan.oldestRevision ?? currentRevision)
        }
        do {
            return try historyReplayer(
                { () throws(HistoryError) in _ = try history.readSnapshot(base) },
                { () throws(HistoryError) in try history.readSegments(plan) }, base.firstRevision, revision
            ) {
                () throws(HistoryError) -> Model in
                let loaded = try history.readSnapshot(base, checking: false)
                let path = history.path(base.name)
                do {
                    return try file.decodeStored(
                        loaded.data, path: path, mappedAt: loaded.mappedAt,
                        repairs: base.decodesAsHeld == true ? .whenMigrated : .always
                    ).model
                } catch {
                    throw .damaged(path: path, reason: "\(error)")
                }
            }
        } catch {
            if case .damaged(let path, let reason) = error { history.noteDamage(path: path, reason: reason) }
            throw error
        }
    }

    /// The changes after `revision` (with `nil`, the newest `limit`), oldest first: at most `limit`, and only those
    /// `matching` keeps. ``HistoryPage/hasMore`` says whether matching changes were left off (later ones after
    /// `revision`, earlier ones for the newest).
    ///
    /// - Throws: ``HistoryError``, as ``model(atRevision:)``.
    public func changes<Change: StateChange>(
        _ type: Change.Type, after revision: UInt64?, limit: Int,
        matching: ((HistoryEntry<Change>) -> Bool)? = nil
    ) throws(HistoryError) -> HistoryPage<Change> where Change.Model == Model {
        guard let history else { throw .disabled }
        let currentRevision = status.revision
        if let revision, revision > currentRevision {
            throw .notReached(revision: revision, currentRevision: currentRevision)
        }
        // The newest `limit` without a filter are the last `limit` revisions: only the segments holding them are read.
        let newestOnly = revision == nil && matching == nil && currentRevision > UInt64(max(0, limit))
        let readAfter = revision ?? (newestOnly ? currentRevision - UInt64(max(0, limit)) : 0)
        let set = try history.gather(lineage: lineage.rawValue, after: readAfter)
        let oldest = set.oldestRevision ?? currentRevision
        if let revision, revision < oldest { throw .pruned(revision: revision, oldestRevision: oldest) }
        var entries: [HistoryEntry<Change>] = []
        var hasMore = false
        let limit = max(0, limit)
        var session = JournalChangeReader<Change>.Session(JournalChangeReader())
        _ = try HistoryArchive.walk(set, from: revision ?? max(oldest, readAfter), through: currentRevision) {
            record throws(HistoryError) -> Bool in
            let entry = HistoryEntry(
                revision: record.revision, date: record.marker?.date, origin: record.marker?.origin,
                change: try Self.decodeChange(&session, record))
            guard matching?(entry) ?? true else { return true }
            if revision != nil, entries.count == limit {
                hasMore = true
                return false
            }
            entries.append(entry)
            if revision == nil, entries.count > limit {
                entries.removeFirst()
                hasMore = true
            }
            return true
        }
        if newestOnly, max(oldest, readAfter) > oldest { hasMore = true }
        return HistoryPage(
            entries: entries, oldestRevision: oldest, currentRevision: currentRevision, hasMore: hasMore)
    }

    /// Checks every history file against the manifest (size, SHA-256) and each segment's frames and sequence, and
    /// returns the history with what failed in ``HistoryStatus/damaged``; `nil` without history. Reads every file:
    /// a start runs it in the background once it serves, so that a damaged file is reported without delaying the
    /// start. Reads that need a damaged file fail with ``HistoryError/damaged(path:reason:)`` whether or not it ran.
    public func verifyHistory() -> HistoryStatus? {
        guard let history else { return nil }
        history.verifyFiles()
        return history.status(lineage: lineage.rawValue)
    }

    /// The history kept now; `nil` when history is off or the state has no journal. Like every read of the
    /// history, it first makes the durable steps the start left for after it, when nothing has yet: the history's
    /// directory and the snapshot of the file the start loaded (a link and an fsync or two).
    public var historyStatus: HistoryStatus? { history?.status(lineage: lineage.rawValue) }

    /// A change record's change, read as a start's replay reads it.
    static func decodeChange<Change: StateChange>(
        _ session: inout JournalChangeReader<Change>.Session, _ record: HistorySegment.Record
    ) throws(HistoryError) -> Change {
        do {
            return try session.read(record.change)
        } catch {
            throw .damaged(
                path: record.path, reason: "the change of revision \(record.revision) does not decode: \(error)")
        }
    }

    /// The replayer of a journal of `Change`.
    ///
    /// Each read of the past makes its own change reader: a reader looks up the change type's direct reader when
    /// it is made, and the first lookup of a conformance scans every conformance record of the process (about 0.3
    /// million instructions), which a start that made one here paid before `READY=1` and most starts never need.
    static func replayer<Change: StateChange>(_ type: Change.Type) -> HistoryReplayer<Model>
    where Change.Model == Model {
        { checkBase, segments, from, through, base throws(HistoryError) -> Model in
            try HistoryReplayPipeline.replay(
                checkBase: checkBase, segments, from: from, through: through, reader: JournalChangeReader<Change>(),
                base: base)
        }
    }

    /// Opens the history of a journaled start: the directory, the link a start after a crash made between its
    /// lineages, and the state file as the first snapshot when the history has none for the state.
    static func openHistory(
        file: StateFile<Model>, loaded: LoadedState<Model>, outcome: ReplayOutcome, configuration: HistoryConfiguration,
        journal: JournalConfiguration, hold: HistoryHold?
    ) -> HistoryArchive {
        let archive = HistoryArchive(
            stateFilePath: file.path, stateDirectory: file.directory, stateFileName: file.fileName,
            fileSystem: file.fileSystem, configuration: configuration,
            journalMaximumByteCount: journal.maximumByteCount, fileMode: file.configuration.fileMode, hold: hold)
        archive.open()
        if outcome.continuesFile, outcome.lineage != file.lineage {
            archive.state.withLock {
                $0.liveLinks.append(
                    (file.lineage.rawValue, outcome.lineage?.rawValue, outcome.replay.revision))
            }
        }
        if outcome.continuesFile, loaded.report.source == .noFile,
            let initial = try? file.codec.encode(
                loaded.model, revision: loaded.report.revision, lineage: outcome.lineage ?? file.lineage),
            let bytes = try? file.sealing.map({ try $0.seal(initial) }) ?? initial
        {
            // No state file: the state begins at the initial state, which no save wrote. Kept as the first snapshot,
            // so that the first changes (a fresh installation's) can be read back and undone like any other.
            archive.keepInitialSnapshot(
                bytes, revision: loaded.report.revision, lineage: (outcome.lineage ?? file.lineage).rawValue,
                chainLineage: file.lineage.rawValue)
        }
        if outcome.continuesFile, loaded.report.source == .file {
            // A file an older release wrote stores no lineage: its state is where the state's own lineage begins.
            let stored = loaded.report.storedLineage ?? file.lineage
            let report = loaded.report
            archive.keepStartingSnapshot(
                stateFile: file.path, revision: report.revision, storedLineage: stored.rawValue,
                chainLineage: file.lineage.rawValue,
                decodesAsHeld: report.repairs.isEmpty && !report.migrated && report.salvage == nil)
        }
        return archive
    }
}
