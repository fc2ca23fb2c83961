import Dispatch
import FoundationEssentials

extension PersistentState {
    /// Takes ownership of the result of `file.load()` with a change journal: replays the changes a crash left in
    /// the journal onto the loaded (migrated) state, then records every later change in it before acknowledging
    /// it. Changes are then ``StateChange`` values of `changeType` (``apply(_:origin:expecting:returning:applied:)``).
    ///
    /// ```swift
    /// let file = StateFile(path: "/var/lib/app/settings.json", schema: schema)
    /// let state = try PersistentState(file: file, loaded: try file.load(), journaling: SettingsChange.self)
    /// logger.info("\(state.journalReplay!)")             // what a crash left, replayed
    /// let applied = try state.apply(SettingsChange.setTheme("dark"))
    /// try await state.waitUntilDurable(applied.revision) // one fdatasync of the journal, shared
    /// ```
    ///
    /// What it promises: a change acknowledged (`apply` returned) is in the journal's file, so a process crash
    /// (SIGKILL, a crash, the OOM killer) loses none; a revision ``waitUntilDurable(_:)`` returned for is on the
    /// device (an fdatasync of the journal, which concurrent waiters share). The background snapshots (the state
    /// file, written with the debounce as without a journal) drop the records they hold; a clean stop
    /// (``close()``) leaves the state file whole and the journal empty.
    ///
    /// The journal continues the state file as it was loaded, or no file; a state that is not what the file holds
    /// (salvaged, imported, quarantined, or restored by the crash-loop guard) is written first, before any change
    /// is accepted. If that write fails, the state works but answers every change with
    /// ``PersistenceError/journalFailed(path:revision:underlying:)`` until a snapshot succeeds. After a crash the
    /// replayed changes stay in their segments until the first snapshot holds them, so the start writes nothing;
    /// that snapshot is scheduled as for a change applied at the start (after the debounce, at most the maximum
    /// delay), so the state file soon holds them, also when there was no state file.
    ///
    /// - Parameters:
    ///   - file: The file the state was loaded from and is saved to.
    ///   - loaded: What `file.load()` returned.
    ///   - changeType: The changes the journal records.
    ///   - journalConfiguration: The journal's size bounds: a snapshot is taken at once past them.
    ///   - historyConfiguration: How much history to keep (``HistoryConfiguration``); off by default.
    ///   - historyHold: Keeps history files a reader (a ``Replicator``) has not copied yet from pruning, up to its
    ///     maximum (``HistoryHold``); `nil` prunes by `historyConfiguration` alone.
    ///   - configuration: The debounce, maximum delay and retry backoff of the snapshots.
    ///   - scheduler: The clock and timers; tests pass a manual one.
    ///   - observer: Told about saves, failures and recoveries, one event at a time in save order.
    /// - Throws: ``StateStoreError/journalFailed(path:reason:underlying:)`` when the journal cannot be read or a
    ///   segment that is not replayed cannot be kept aside; nothing was changed.
    public convenience init<Change: StateChange>(
        file: StateFile<Model>,
        loaded: LoadedState<Model>,
        journaling changeType: Change.Type,
        journal journalConfiguration: JournalConfiguration = JournalConfiguration(),
        history historyConfiguration: HistoryConfiguration = .off,
        historyHold: HistoryHold? = nil,
        configuration: PersistenceConfiguration = PersistenceConfiguration(),
        scheduler: any PersistenceScheduler = DispatchPersistenceScheduler(),
        observer: (@Sendable (PersistenceEvent) -> Void)? = nil
    ) throws(StateStoreError) where Change.Model == Model {
        var model = loaded.model
        let outcome = try file.replayJournal(Change.self, onto: &model, report: loaded.report)
        var journal = JournalEngineState(
            changeType: ObjectIdentifier(Change.self), configuration: journalConfiguration,
            revision: outcome.replay.revision, stateByteCount: loaded.report.byteCount)
        journal.leftFromStart = outcome.replayedSegments.map(\.path)
        if outcome.continuesFile, outcome.lineage != file.lineage { journal.relabels = .some(outcome.lineage) }
        let needsSnapshot = !outcome.continuesFile
        let history =
            historyConfiguration.isEnabled
            ? Self.openHistory(
                file: file, loaded: loaded, outcome: outcome, configuration: historyConfiguration,
                journal: journalConfiguration, hold: historyHold) : nil
        journal.marksChanges = history != nil
        if needsSnapshot {
            journal.failure = .journalFailed(
                path: file.path, revision: outcome.replay.revision,
                underlying: "the journal starts once the state file holds the state's lineage")
        }
        self.init(
            file: file, model: model, revision: outcome.replay.revision, journal: journal,
            changeTypeName: { String(describing: Change.self) }, replay: outcome.replay, configuration: configuration,
            scheduler: scheduler, observer: observer, history: history,
            historyReplayer: history == nil ? nil : Self.replayer(Change.self))
        if needsSnapshot {
            // The snapshot starts the first segment (``rotateJournal(_:)``) and, once durable, resumes acknowledgements.
            try? saveSynchronously()
        } else {
            startJournalInPlace(fileRevision: loaded.report.revision)
            scheduleSnapshotOfReplayedChanges()
        }
        if let history {
            // The start's durable steps (its snapshot's link, a new directory), then the snapshot's checksums and
            // the manifest's record, off the start's path (HistoryStartWork); a save or a read that comes first
            // makes them itself.
            saveQueue.async {
                history.finishStart()
                history.describeStartingSnapshot()
            }
        }
    }

    /// Arms the snapshot of the changes the start replayed, as a change would (``saveDeadline(_:)``): without it,
    /// a state file would wait for the next change to hold them.
    private func scheduleSnapshotOfReplayedChanges() {
        let job = state.withLock { engine -> SaveJob<Model>? in
            guard engine.status.isDirty else { return nil }
            return scheduleOrStartSave(&engine)
        }
        if let job { startInBackground(job) }
    }

    /// Applies `change`, records it in the change journal and gives it the next revision; returns what `returning`
    /// reads from the changed model. On a state without a journal the change is applied as a closure would be.
    ///
    /// - Parameters:
    ///   - change: The change; it must be of the journal's change type.
    ///   - origin: Who asks for it (a peer's credentials, a tool), kept with the change in the history
    ///     (``HistoryEntry/origin``); `nil` names nobody.
    ///   - expecting: Applies the change only while the state is at a revision this accepts (an HTTP `If-Match`),
    ///     as in ``apply(validatesBeforeMutating:expecting:_:applied:)``.
    ///   - returning: Reads the answer from the changed model, under the lock.
    ///   - applied: Runs under the lock once the change has its revision (publishing an event).
    /// - Throws: The change's own error (nothing changed); ``PersistenceError/closed(path:)``,
    ///   ``PersistenceError/revisionMismatch(path:current:)`` or ``PersistenceError/notJournaled(path:changeType:)``
    ///   (nothing changed); `EncodingError` when the change does not encode (nothing changed);
    ///   ``PersistenceError/journalFailed(path:revision:underlying:)`` when the change was applied but the journal
    ///   could not record it (not acknowledged: it is saved with the next snapshot).
    @discardableResult
    public func apply<Change: StateChange, Value: Sendable>(
        _ change: Change,
        origin: String? = nil,
        expecting: ((_ revision: UInt64) -> Bool)? = nil,
        returning: (Model) -> Value,
        applied: ((Applied<Value>) -> Void)? = nil
    ) throws -> Applied<Value> where Change.Model == Model {
        let encoded = try change.encodedForJournal()
        let outcome: ApplyOutcome<Value, Model> = state.withLock { engine in
            guard !engine.status.isClosed else { return .refused }
            if let journal = engine.journal, journal.changeType != ObjectIdentifier(Change.self) {
                return .failed(PersistenceError.notJournaled(path: file.path, changeType: journalChangeTypeName()))
            }
            if let expecting, !expecting(engine.status.revision) {
                return .failed(PersistenceError.revisionMismatch(path: file.path, current: engine.status.revision))
            }
            do {
                if change.validatesBeforeMutating {
                    try change.apply(to: &engine.model)
                } else {
                    var working = engine.model
                    try change.apply(to: &working)
                    engine.model = working
                }
            } catch {
                return .failed(error)
            }
            let now = scheduler.now
            engine.status.revision += 1
            file.figures.applied(revision: engine.status.revision)
            engine.lastChangeAt = now
            if engine.dirtySince == nil { engine.dirtySince = now }
            let notRecorded = appendToJournal(
                revision: engine.status.revision, change: encoded, origin: origin, &engine)
            let result = Applied(value: returning(engine.model), revision: engine.status.revision)
            applied?(result)
            let job = scheduleOrStartSave(&engine)
            if let notRecorded { return .notJournaled(result, job, notRecorded) }
            return .accepted(result, job)
        }
        return try complete(outcome)
    }

    /// Applies `change` as ``apply(_:origin:expecting:returning:applied:)`` does, answering nothing but the revision.
    @discardableResult
    public func apply<Change: StateChange>(
        _ change: Change, expecting: ((_ revision: UInt64) -> Bool)? = nil
    ) throws -> Applied<Void> where Change.Model == Model {
        try apply(change, expecting: expecting, returning: { _ in () })
    }

    /// What the start found in the change journal and replayed; `nil` for a state without a journal.
    public var journalReplay: JournalReplay? { replay }

    /// Appends the record of `revision` to the current segment; returns why the change is not acknowledged, or
    /// `nil`. Runs under the lock, so records are in revision order.
    func appendToJournal(
        revision: UInt64, change: [UInt8], origin: String? = nil, _ engine: inout PersistenceEngineState<Model>
    ) -> PersistenceError? {
        guard var journal = engine.journal else { return nil }
        defer { engine.journal = journal }
        // While the journal has failed, a segment started since (``JournalEngineState/resumesAt``) still gets the
        // record, so that it holds every change after its base once the snapshot it continues is durable.
        guard let index = journal.segments.indices.last, journal.failure == nil || journal.resumesAt != nil else {
            makeSnapshotDue(&engine)
            return .journalFailed(path: file.path, revision: revision, underlying: Self.reason(journal.failure))
        }
        let payload = JournalSegmentFormat.changePayload(revision: revision, change: change)
        guard payload.count <= JournalFraming.maximumPayloadLength else {
            let failure = PersistenceError.journalFailed(
                path: file.path, revision: revision, underlying: "a change of \(payload.count) bytes is too large")
            journalFailed(failure, &journal, &engine)
            return failure
        }
        let segment = journal.segments[index]
        var record: [UInt8] = []
        var marker: JournalSegmentFormat.Marker?
        if journal.marksChanges {
            // The change's time and origin, when they differ from the last marker's: in the same write.
            let candidate = JournalSegmentFormat.Marker(date: scheduler.date, origin: origin)
            if candidate != journal.lastMarker {
                marker = candidate
                record = JournalFraming.frame(candidate.payload)
            }
        }
        record += JournalFraming.frame(payload)
        do {
            let fileSystem = file.fileSystem
            let failure: FileSystemError? = record.withUnsafeBytes { bytes in
                do throws(FileSystemError) {
                    try fileSystem.writeAll(bytes, to: segment.descriptor, path: segment.path)
                    return nil
                } catch {
                    return error
                }
            }
            if let failure { throw failure }
        } catch {
            let failure = PersistenceError.journalFailed(path: file.path, revision: revision, underlying: "\(error)")
            journalFailed(failure, &journal, &engine)
            return failure
        }
        journal.segments[index].lastRevision = revision
        journal.segments[index].byteCount += record.count
        if let marker { journal.lastMarker = marker }
        journal.segments[index].unsynced = true
        journal.appendedRevision = revision
        journal.recordsAppended += 1
        file.figures.appended()
        if journal.isFull { makeSnapshotDue(&engine) }
        if let failure = journal.failure {
            return .journalFailed(path: file.path, revision: revision, underlying: Self.reason(failure))
        }
        return nil
    }

    /// Records that the journal failed with `failure`, telling the observer unless it was told already (the start's
    /// snapshot-first failure is not told), and makes a snapshot due at once.
    func journalFailed(
        _ failure: PersistenceError, _ journal: inout JournalEngineState, _ engine: inout PersistenceEngineState<Model>
    ) {
        if journal.failure == nil || !journal.failureAnnounced {
            file.figures.journalFailed()
            engine.journalEvents.append(.journalFailed(error: failure))
            journal.failureAnnounced = true
        }
        journal.failure = failure
        journal.resumesAt = nil
        makeSnapshotDue(&engine)
    }

    /// Tells the observer what happened to the journal while the lock was held.
    func deliverJournalEvents() {
        let events = state.withLock { engine in
            defer { engine.journalEvents.removeAll() }
            return engine.journalEvents
        }
        if let observer { for event in events { observer(event) } }
    }

    /// Makes a snapshot due at once (the journal failed or is full): without the debounce, and without the timer
    /// armed for it, whose deadline is later.
    func makeSnapshotDue(_ engine: inout PersistenceEngineState<Model>) {
        engine.urgent = true
        engine.timer?.handle.cancel()
        engine.timer = nil
    }

    private static func reason(_ failure: PersistenceError?) -> String {
        guard case .journalFailed(_, _, let underlying) = failure else { return "the journal is not working" }
        return underlying
    }

}
