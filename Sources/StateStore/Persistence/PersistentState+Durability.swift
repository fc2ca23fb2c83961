import Dispatch
import Synchronization

extension PersistentState {
    /// Calls `callback` once `revision` is durable (after the directory fsync of a save that included it), or
    /// with the error of that save.
    ///
    /// The callback runs on the thread that finished the save, or at once on the caller's thread when the
    /// outcome is already known: also when the latest save, which included `revision`, already failed and no
    /// save is running (a caller that asks just after the failure gets it, rather than waiting for the retry).
    /// Waiting does not make a save happen sooner.
    public func whenDurable(
        _ revision: UInt64, _ callback: @escaping @Sendable (Result<Void, PersistenceError>) -> Void
    ) {
        var syncJournal = false
        let immediate = state.withLock { engine -> Result<Void, PersistenceError>? in
            if revision <= engine.status.durableRevision { return .success(()) }
            if revision > engine.status.revision {
                return .failure(
                    .unknownRevision(path: file.path, requested: revision, latest: engine.status.revision))
            }
            if var journal = engine.journal, journal.failure == nil, revision <= journal.appendedRevision {
                // The journal's next group sync makes it durable.
                engine.waiters.append(DurabilityWaiter(revision: revision, resume: callback))
                syncJournal = !journal.syncScheduled
                journal.syncScheduled = true
                engine.journal = journal
                return nil
            }
            if engine.status.isClosed, !engine.status.isSaving, engine.flushDepth == 0 {
                return .failure(.closedBeforeDurable(path: file.path, revision: revision))
            }
            let saveRunning = engine.status.isSaving && !engine.savingOutcomeRecorded
            if !saveRunning, let failure = engine.status.lastError,
                case .saveFailed(_, let failed, _) = failure, revision <= failed
            {
                return .failure(failure)
            }
            engine.waiters.append(DurabilityWaiter(revision: revision, resume: callback))
            return nil
        }
        if let immediate { callback(immediate) }
        if syncJournal { journalQueue.async { [self] in runJournalSync() } }
    }

    /// Asks for the pending changes to be saved now rather than after the debounce (a save in flight finishes
    /// first; a failure backoff still applies). For callers that are about to wait for durability. A journaled
    /// state whose journal works does nothing here: waiting syncs the journal, which is cheaper than a snapshot.
    public func saveSoon() {
        let job = state.withLock { engine -> SaveJob<Model>? in
            guard engine.status.isDirty, !engine.status.isClosed else { return nil }
            // A working journal makes changes durable by itself (``whenDurable(_:_:)`` syncs it): a snapshot
            // would cost the whole state.
            if let journal = engine.journal, journal.failure == nil { return nil }
            engine.urgent = true
            engine.timer?.handle.cancel()
            engine.timer = nil
            return scheduleOrStartSave(&engine)
        }
        if let job { startInBackground(job) }
    }

    /// Returns once `revision` is durable, or throws the error of the save that included it.
    ///
    /// Cancelling the task does not end the wait; the save ends it.
    public func waitUntilDurable(_ revision: UInt64) async throws(PersistenceError) {
        let result = await withCheckedContinuation { continuation in
            whenDurable(revision) { continuation.resume(returning: $0) }
        }
        try result.get()
    }

    /// Blocks the calling thread until `revision` is durable, the save that included it fails, or `timeout`
    /// passes (``PersistenceError/timedOut(path:revision:)``). Never call it from a change, a read, an observer
    /// or the thread a save finishes on.
    ///
    /// ```swift
    /// let applied = try state.apply { $0.theme = "dark" }
    /// try state.waitUntilDurableBlocking(applied.revision, timeout: .seconds(5))
    /// ```
    ///
    /// - Parameters:
    ///   - revision: The revision to wait for, from ``Applied/revision``.
    ///   - timeout: How long to wait at most, a Swift `Duration` such as `.seconds(5)` or `.milliseconds(250)`; an
    ///     hour by default.
    /// - Throws: ``PersistenceError/saveFailed(path:revision:underlying:)`` when the save failed,
    ///   ``PersistenceError/timedOut(path:revision:)`` when `timeout` passed first, ``PersistenceError/closed(path:)``
    ///   or ``PersistenceError/closedBeforeDurable(path:revision:)`` when the state was closed first,
    ///   ``PersistenceError/unknownRevision(path:requested:latest:)`` for a revision not handed out yet.
    public func waitUntilDurableBlocking(
        _ revision: UInt64, timeout: Duration = .seconds(3600)
    ) throws(PersistenceError) {
        let semaphore = DispatchSemaphore(value: 0)
        let box = Mutex<Result<Void, PersistenceError>?>(nil)
        whenDurable(revision) { result in
            box.withLock { $0 = result }
            semaphore.signal()
        }
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
        if semaphore.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .timedOut {
            throw .timedOut(path: file.path, revision: revision)
        }
        try box.withLock { $0 }!.get()
    }
}
