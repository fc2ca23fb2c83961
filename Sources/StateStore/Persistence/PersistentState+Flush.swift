import Dispatch

extension PersistentState {
    /// Writes the latest state now and returns once it is durable, or throws why it is not (the old file is then
    /// intact, or holds the old or the new version if the directory fsync failed).
    ///
    /// Cancels the pending debounce, waits for a save in flight, then saves on the calling thread if anything
    /// is still not durable. Safe to call twice, concurrently, while a save runs, and after ``close()``. It
    /// blocks, so call it from a Dispatch signal source handler or another plain thread, never from a change,
    /// a read, an observer or a durability callback.
    public func flushSynchronously() throws(PersistenceError) {
        let pending = state.withLock { engine -> (any PersistenceTimer)? in
            engine.flushDepth += 1
            defer { engine.timer = nil }
            return engine.timer?.handle
        }
        pending?.cancel()
        defer {
            let next = state.withLock { engine -> SaveJob<Model>? in
                engine.flushDepth -= 1
                return scheduleOrStartSave(&engine)
            }
            if let next { startInBackground(next) }
        }
        while true {
            let step = state.withLock { engine -> FlushStep<Model> in
                if engine.status.isSaving {
                    let semaphore = DispatchSemaphore(value: 0)
                    engine.idleWaiters.append(semaphore)
                    return .wait(semaphore)
                }
                guard engine.status.isDirty else { return .done }
                return .save(takeSnapshot(&engine))
            }
            switch step {
            case .done:
                return
            case .wait(let semaphore):
                semaphore.wait()
            case .save(let job):
                let outcome = perform(job)
                finish(job, outcome: outcome)
                if case .failure(let underlying) = outcome {
                    throw .saveFailed(path: file.path, revision: job.revision, underlying: underlying)
                }
                return
            }
        }
    }

    /// Writes the whole current state now, even when every revision is already durable, and returns once it is
    /// durable: for a state whose file is not what it would write, though no change was applied (a load that
    /// migrated, repaired or salvaged it), so that the file holds it before the program reports itself ready.
    /// The revision does not change. Until a save succeeds the state is dirty
    /// (``PersistenceStatus/fileNeedsRewrite``): when this one fails, the save is retried in the background like
    /// any other. Blocks like ``flushSynchronously()``.
    public func saveSynchronously() throws(PersistenceError) {
        let now = scheduler.now
        state.withLock { engine in
            engine.status.fileNeedsRewrite = true
            engine.lastChangeAt = now
            if engine.dirtySince == nil { engine.dirtySince = now }
        }
        try flushSynchronously()
    }

    /// Refuses every later change (``PersistenceError/closed(path:)``), then flushes. No background save runs
    /// after it; if the flush fails, ``flushSynchronously()`` can be called again.
    ///
    /// Once every revision is durable it records the clean stop in the lock file
    /// (``StateFile/recordCleanStop(revision:)``), so that the next load continues this ``lineage``; after a
    /// failed flush or a crash the next load starts a new one. With history, it also writes the manifest's record
    /// of the snapshot the start kept if that has not been written yet, unless the snapshot's checksums are not
    /// computed yet (a stop right after a start): the next start then adopts it, as after a crash.
    public func close() throws(PersistenceError) {
        let pending = state.withLock { engine -> (any PersistenceTimer)? in
            engine.status.isClosed = true
            defer { engine.timer = nil }
            return engine.timer?.handle
        }
        pending?.cancel()
        try flushSynchronously()
        history?.close()
        let status = self.status
        guard !status.isDirty else { return }
        do {
            try file.recordCleanStop(revision: status.savedRevision)
        } catch {
            // Without the marker the next load starts a new lineage: a client's ETag is refused once more than
            // needed, never accepted wrongly. The state itself is durable.
        }
    }
}

/// What a flush does next.
enum FlushStep<Model: Sendable> {
    case wait(DispatchSemaphore)
    case save(SaveJob<Model>)
    case done
}
