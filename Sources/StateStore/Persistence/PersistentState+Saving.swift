import Dispatch
import FoundationEssentials

extension PersistentState {
    /// When the next background save is due, or nil when none should be scheduled: the state is clean, a save
    /// or a flush is running, or the state is closed.
    func saveDeadline(_ engine: PersistenceEngineState<Model>) -> ContinuousClock.Instant? {
        guard engine.status.isDirty, !engine.status.isSaving, !engine.status.isClosed, engine.flushDepth == 0,
            let lastChange = engine.lastChangeAt, let dirtySince = engine.dirtySince
        else { return nil }
        var deadline =
            engine.urgent
            ? lastChange : min(lastChange + configuration.debounce, dirtySince + configuration.maximumDelay)
        if let retryAt = engine.retryAt { deadline = max(deadline, retryAt) }
        return deadline
    }

    /// Starts a save now if one is due, otherwise arms the timer for the deadline. Called with the lock held
    /// after anything that can change the deadline; a timer already armed is kept (its deadline is never
    /// later than the real one, and it re-arms when it fires early).
    func scheduleOrStartSave(_ engine: inout PersistenceEngineState<Model>) -> SaveJob<Model>? {
        guard engine.timer == nil, let deadline = saveDeadline(engine) else { return nil }
        let now = scheduler.now
        if deadline <= now { return takeSnapshot(&engine) }
        engine.nextTimerToken += 1
        let token = engine.nextTimerToken
        let handle = scheduler.schedule(after: deadline - now) { [weak self] in self?.timerFired(token: token) }
        engine.timer = ArmedTimer(token: token, handle: handle)
        return nil
    }

    /// Marks a save in flight and takes the snapshot it writes.
    func takeSnapshot(_ engine: inout PersistenceEngineState<Model>) -> SaveJob<Model> {
        let start = ContinuousClock.now
        engine.status.savingRevision = engine.status.revision
        engine.savingOutcomeRecorded = false
        engine.urgent = false
        let job = SaveJob(
            snapshot: engine.model, revision: engine.status.revision, rewrites: engine.status.fileNeedsRewrite,
            dirtySince: engine.dirtySince, startedAt: start)
        engine.dirtySince = nil
        rotateJournal(&engine)
        engine.status.lastSnapshotDuration = ContinuousClock.now - start
        return job
    }

    func timerFired(token: UInt64) {
        let job = state.withLock { engine -> SaveJob<Model>? in
            guard engine.timer?.token == token else { return nil }
            engine.timer = nil
            return scheduleOrStartSave(&engine)
        }
        if let job { startInBackground(job) }
    }

    /// Encodes and writes `job` on the save queue, then finishes it.
    func startInBackground(_ job: SaveJob<Model>) {
        saveQueue.async { [self] in
            finish(job, outcome: perform(job))
        }
    }

    /// Encodes the snapshot and durably replaces the file; no lock is held. With history, the start's durable
    /// steps are made first (``HistoryArchive/finishStart()``): its snapshot links the file this save replaces.
    func perform(_ job: SaveJob<Model>) -> Result<Int, StateStoreError> {
        history?.finishStart()
        do {
            return .success(try file.save(job.snapshot, revision: job.revision))
        } catch {
            return .failure(error)
        }
    }

    /// Records the outcome, resumes the waiters it settles and tells the observer, then compacts the journal
    /// (moving its segments into the history), clears the in-flight mark and schedules (or starts) the next save.
    /// Callbacks run while the save still counts as in flight, so acknowledgements and events are delivered in save
    /// order; neither waits for the compaction, which is bookkeeping after a save that is already durable (with
    /// history, a directory fsync of its own).
    func finish(_ job: SaveJob<Model>, outcome: Result<Int, StateStoreError>) {
        let end = scheduler.now
        let date = scheduler.date
        let duration = ContinuousClock.now - job.startedAt
        let (settled, result, events) = state.withLock { engine in
            engine.savingOutcomeRecorded = true
            return record(job, outcome: outcome, in: &engine, end: end, date: date, duration: duration)
        }
        for waiter in settled { waiter.resume(result) }
        if let observer { for event in events { observer(event) } }
        if case .success = outcome { compactJournal(upTo: job.revision) }
        deliverJournalEvents()
        let (next, idle) = state.withLock { engine in
            engine.status.savingRevision = nil
            defer { engine.idleWaiters.removeAll() }
            return (scheduleOrStartSave(&engine), engine.idleWaiters)
        }
        for semaphore in idle { semaphore.signal() }
        if let next { startInBackground(next) }
    }

    /// Updates the status for a finished save; returns the waiters it settles, their result and the events.
    private func record(
        _ job: SaveJob<Model>, outcome: Result<Int, StateStoreError>, in engine: inout PersistenceEngineState<Model>,
        end: ContinuousClock.Instant, date: Date, duration: Duration
    ) -> ([DurabilityWaiter], Result<Void, PersistenceError>, [PersistenceEvent]) {
        var events: [PersistenceEvent] = []
        let result: Result<Void, PersistenceError>
        switch outcome {
        case .success(let byteCount):
            let previous = engine.status.savedRevision
            if job.revision > previous {
                engine.status.savedRevision = job.revision
                engine.status.changesCoalesced += job.revision - previous - 1
            }
            engine.status.durableRevision = max(engine.status.durableRevision, job.revision)
            journalSnapshotSaved(job.revision, in: &engine)
            engine.journal?.stateByteCount = byteCount
            if job.rewrites { engine.status.fileNeedsRewrite = false }
            engine.status.savesPerformed += 1
            engine.status.lastSaveDate = date
            engine.status.lastSaveDuration = duration
            engine.status.lastSaveByteCount = byteCount
            events.append(.saved(revision: job.revision, duration: duration, byteCount: byteCount))
            file.figures.saved(
                revision: engine.status.savedRevision, duration: duration, byteCount: byteCount,
                durable: engine.status.durableRevision)
            if engine.status.consecutiveFailures > 0 {
                events.append(.saveRecovered(revision: job.revision, failures: engine.status.consecutiveFailures))
            }
            engine.status.consecutiveFailures = 0
            engine.status.lastError = nil
            engine.status.lastErrorDate = nil
            engine.retryAt = nil
            result = .success(())
        case .failure(let underlying):
            let error = PersistenceError.saveFailed(path: file.path, revision: job.revision, underlying: underlying)
            engine.status.savesFailed += 1
            file.figures.saveFailed(underlying)
            engine.status.consecutiveFailures += 1
            engine.status.lastError = error
            engine.status.lastErrorDate = date
            if let since = job.dirtySince {
                engine.dirtySince = engine.dirtySince.map { min($0, since) } ?? since
            }
            let delay = configuration.retryBackoff.delay(afterFailures: engine.status.consecutiveFailures)
            engine.retryAt = end + delay
            events.append(
                .saveFailed(
                    error: error, consecutiveFailures: engine.status.consecutiveFailures,
                    retryIn: engine.status.isClosed ? nil : delay))
            result = .failure(error)
        }
        if case .failure = result, let journal = engine.journal, journal.failure == nil {
            // The journal, not this snapshot, makes these revisions durable: its sync settles their waiters.
            return ([], result, events)
        }
        let settled = engine.waiters.filter { $0.revision <= job.revision }
        engine.waiters.removeAll { $0.revision <= job.revision }
        return (settled, result, events)
    }
}
