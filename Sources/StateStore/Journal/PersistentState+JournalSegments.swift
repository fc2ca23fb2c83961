import Dispatch
import FoundationEssentials
import Glibc

extension PersistentState {
    /// Starts the journal's first segment at the revision the start reached, continuing the state file and the
    /// segments replayed onto it (which stay until a snapshot holds their changes). When that fails, changes are
    /// answered with ``PersistenceError/journalFailed(path:revision:underlying:)`` and a snapshot is taken at once.
    ///
    /// - Parameter fileRevision: The revision of the state file the start loaded.
    func startJournalInPlace(fileRevision: UInt64) {
        let retired = retireLeftoversBeforeTheirLink(fileRevision: fileRevision)
        let job = state.withLock { engine -> SaveJob<Model>? in
            guard retired, startSegment(baseRevision: engine.status.revision, &engine) else {
                guard var journal = engine.journal else { return nil }
                journalFailed(
                    .journalFailed(
                        path: file.path, revision: engine.status.revision, underlying: "cannot start a segment"),
                    &journal, &engine)
                engine.journal = journal
                return scheduleOrStartSave(&engine)
            }
            return nil
        }
        deliverJournalEvents()
        if let job { startInBackground(job) }
    }

    /// Removes, durably, the segments left from the start other than the first segment's namesake, when the first
    /// segment is about to replace that namesake and the replay ended at the state file's revision; returns whether
    /// the first segment may be started.
    ///
    /// A start that snapshotted before any change and was killed before that snapshot's compaction leaves a
    /// header-only segment at the file's revision whose header (`relabels`) may be the only link from the file's
    /// lineage to the lineage of the other segments left beside it. Replacing it while they remain would leave a
    /// journal no start can continue after the next crash (they would no longer be known as the file's ancestors).
    /// Every record they hold is in the loaded file (the replay reached nothing past it), so they go now, as a
    /// compaction would: into the history, or removed, with the state directory synced before and after.
    private func retireLeftoversBeforeTheirLink(fileRevision: UInt64) -> Bool {
        let others = state.withLock { engine -> [String] in
            guard let journal = engine.journal, engine.status.revision == fileRevision else { return [] }
            let path = file.journalSegmentPath(baseRevision: fileRevision)
            guard journal.leftFromStart.contains(path) else { return [] }
            return journal.leftFromStart.filter { $0 != path }
        }
        guard !others.isEmpty else { return true }
        let fileSystem = file.fileSystem
        do {
            // The loaded file's name first: its writer may have been killed between its rename and its fsync.
            try fileSystem.fsyncDirectory(file.directory)
            if let history {
                history.moveSegments(others, date: scheduler.date)
            } else {
                for path in others { try? fileSystem.unlink(path) }
            }
            guard others.allSatisfy({ !fileSystem.exists($0) }) else { return false }
            try fileSystem.fsyncDirectory(file.directory)
        } catch {
            return false
        }
        state.withLock { engine in engine.journal?.leftFromStart.removeAll { others.contains($0) } }
        return true
    }

    /// Starts a new segment for the changes after the snapshot being taken now, at `engine.status.revision`; called
    /// under the lock by every snapshot. A segment that holds no change yet is kept instead. When a new one cannot
    /// be started, appends go on in the current one.
    func rotateJournal(_ engine: inout PersistenceEngineState<Model>) {
        guard let journal = engine.journal else { return }
        if journal.failure == nil, let current = journal.segments.last, current.lastRevision == current.baseRevision {
            return
        }
        _ = startSegment(baseRevision: engine.status.revision, &engine)
    }

    /// Creates `<name>.journal.<base>` holding its header and makes it the segment appended to; returns whether it
    /// did. The header is written under a temporary name, which is then renamed, so a segment rarely lacks its
    /// header (only when the power is cut before the header's bytes reach the device; such a segment holds no
    /// change, and a start removes it).
    private func startSegment(baseRevision: UInt64, _ engine: inout PersistenceEngineState<Model>) -> Bool {
        guard var journal = engine.journal else { return false }
        defer { engine.journal = journal }
        let fileSystem = file.fileSystem
        let path = file.journalSegmentPath(baseRevision: baseRevision)
        if journal.segments.contains(where: { $0.path == path }) { return false }
        if let stale = journal.leftFromStart.firstIndex(of: path) {
            // A segment left from the start with this base holds no change after it: it makes room, once the other
            // segments its header may link to the file's lineage are gone (retireLeftoversBeforeTheirLink).
            guard journal.leftFromStart.count == 1 || baseRevision > file.revision else { return false }
            try? fileSystem.unlink(path)
            journal.leftFromStart.remove(at: stale)
        }
        let header = JournalFraming.frame(
            JournalSegmentFormat.Header(lineage: file.lineage, baseRevision: baseRevision, relabels: journal.relabels)
                .payload)
        let created: (descriptor: Int32, path: String)
        do {
            created = try fileSystem.createFile(
                in: file.directory, prefix: file.journalTemporaryPrefix, mode: file.configuration.fileMode)
        } catch {
            return false
        }
        do {
            let written = try header.withUnsafeBytes { buffer throws(FileSystemError) in
                try fileSystem.write(created.descriptor, buffer, path: created.path)
            }
            guard written == header.count else {
                throw FileSystemError(operation: "write", path: created.path, errno: EIO)
            }
            // Renamed rather than linked, so that the descriptor names the segment (what /proc and lsof show).
            // Nothing else has this name: segments found at the start were kept aside or are in
            // ``JournalEngineState/leftFromStart`` (whose namesake was removed above).
            try fileSystem.rename(created.path, to: path)
        } catch {
            try? fileSystem.close(created.descriptor, path: created.path)
            try? fileSystem.unlink(created.path)
            return false
        }
        journal.segments.append(
            JournalEngineState.Segment(
                path: path, baseRevision: baseRevision, descriptor: created.descriptor, lastRevision: baseRevision,
                byteCount: header.count, unsynced: true))
        journal.appendedRevision = baseRevision
        journal.lastMarker = nil
        journal.relabels = .none
        if journal.failure != nil { journal.resumesAt = baseRevision }
        return true
    }

    /// A snapshot of `revision` is durable (under the lock): the segments started before it have durable names
    /// (its directory fsync), and a journal that failed works again once the snapshot its new segment continues
    /// is durable.
    func journalSnapshotSaved(_ revision: UInt64, in engine: inout PersistenceEngineState<Model>) {
        guard var journal = engine.journal else { return }
        defer { engine.journal = journal }
        for index in journal.segments.indices where journal.segments[index].baseRevision <= revision {
            journal.segments[index].needsDirectorySync = false
        }
        if journal.failure != nil, let resumesAt = journal.resumesAt, resumesAt <= revision {
            journal.failure = nil
            journal.resumesAt = nil
            journal.syncedRevision = max(journal.syncedRevision, revision)
            if journal.failureAnnounced { engine.journalEvents.append(.journalResumed(revision: revision)) }
            journal.failureAnnounced = false
        }
    }

    /// Drops the segments whose every change a durable snapshot of `revision` holds: closes and removes them on
    /// the journal's queue, after any sync that uses their descriptors. A removal that fails leaves a segment a
    /// later start skips (its records are in the snapshot).
    func compactJournal(upTo revision: UInt64) {
        let date = scheduler.date
        let removed = state.withLock { engine -> [(descriptor: Int32?, path: String)] in
            guard var journal = engine.journal else { return [] }
            defer { engine.journal = journal }
            var removed: [(descriptor: Int32?, path: String)] = journal.leftFromStart.map { (nil, $0) }
            journal.leftFromStart = []
            let current = journal.segments.count - 1
            for (index, segment) in journal.segments.enumerated().reversed()
            where index != current && segment.lastRevision <= revision {
                removed.append((segment.descriptor, segment.path))
                journal.segments.remove(at: index)
            }
            if !removed.isEmpty { journal.lastCompactionDate = date }
            return removed
        }
        let fileSystem = file.fileSystem
        if !removed.isEmpty {
            journalQueue.sync {
                for segment in removed {
                    // A segment kept as history is not synced here: the manifest's next rewrite syncs the file
                    // system first (HistoryArchive.writeManifest).
                    if let descriptor = segment.descriptor { try? fileSystem.close(descriptor, path: segment.path) }
                    if history == nil { try? fileSystem.unlink(segment.path) }
                }
            }
        }
        // With history, the segments move into it instead, and the file just saved may become a snapshot there.
        history?.archive(
            segments: removed.map(\.path), stateFile: file.path, savedRevision: revision,
            lineage: file.lineage.rawValue, date: date)
    }

    /// One group sync, on the journal's queue: fdatasyncs every segment written since its last sync (and the
    /// directory while a segment's name may not be durable), then settles every waiter the synced records cover.
    /// Waiters that come during the fdatasync queue the next pass, which covers them all at once.
    func runJournalSync() {
        let work = state.withLock { engine -> JournalSyncWork? in
            guard var journal = engine.journal else { return nil }
            defer { engine.journal = journal }
            journal.syncScheduled = false
            guard journal.syncedRevision < journal.appendedRevision else { return nil }
            var work = JournalSyncWork(target: journal.appendedRevision)
            work.from = journal.syncedRevision
            for index in journal.segments.indices {
                if journal.segments[index].unsynced {
                    work.files.append((journal.segments[index].descriptor, journal.segments[index].path))
                    journal.segments[index].unsynced = false
                }
                if journal.segments[index].needsDirectorySync { work.directory = true }
            }
            return work
        }
        guard let work else { return settleJournalWaiters(failure: nil) }
        let fileSystem = file.fileSystem
        var failure: FileSystemError?
        let started = ContinuousClock.now
        do throws(FileSystemError) {
            for (descriptor, path) in work.files { try fileSystem.fdatasync(descriptor, path: path) }
            if work.directory { try fileSystem.fsyncDirectory(file.directory) }
        } catch {
            failure = error
        }
        let duration = ContinuousClock.now - started
        state.withLock { engine in
            guard var journal = engine.journal else { return }
            defer { engine.journal = journal }
            if failure != nil { return }
            journal.syncsPerformed += 1
            file.figures.journalSynced(
                changes: work.target &- work.from, duration: duration,
                durable: max(engine.status.durableRevision, work.target),
                bytes: journal.segments.reduce(0) { $0 + $1.byteCount }, segments: journal.segments.count)
            if work.directory {
                for index in journal.segments.indices { journal.segments[index].needsDirectorySync = false }
            }
            // While the journal has failed and a new segment waits for its snapshot, the records do not continue
            // the state file on their own: the snapshot settles them.
            guard journal.failure == nil || journal.resumesAt == nil else { return }
            journal.syncedRevision = max(journal.syncedRevision, work.target)
            engine.status.durableRevision = max(engine.status.durableRevision, work.target)
        }
        settleJournalWaiters(
            failure: failure.map { .journalFailed(path: file.path, revision: work.target, underlying: "\($0)") })
    }

    /// Resumes the waiters the journal made durable; after a failed sync, fails every waiter not durable yet and
    /// takes a snapshot at once.
    private func settleJournalWaiters(failure: PersistenceError?) {
        let (settled, job) = state.withLock { engine -> ([DurabilityWaiter], SaveJob<Model>?) in
            let durable = engine.status.durableRevision
            var settled = engine.waiters.filter { $0.revision <= durable }
            engine.waiters.removeAll { $0.revision <= durable }
            guard let failure, var journal = engine.journal else { return (settled, nil) }
            // An fdatasync that failed may have lost the pages it reported on: those records are never trusted.
            journalFailed(failure, &journal, &engine)
            engine.journal = journal
            settled += engine.waiters
            engine.waiters.removeAll()
            return (settled, scheduleOrStartSave(&engine))
        }
        deliverJournalEvents()
        for waiter in settled {
            if let failure, waiter.revision > state.withLock({ $0.status.durableRevision }) {
                waiter.resume(.failure(failure))
            } else {
                waiter.resume(.success(()))
            }
        }
        if let job { startInBackground(job) }
    }

    /// The change journal now; `nil` for a state without one.
    public var journalStatus: JournalStatus? { state.withLock { $0.journal?.status } }
}

/// What one group sync does outside the lock.
struct JournalSyncWork {
    var target: UInt64
    /// The revision synced before: the group is the changes after it, up to ``target``.
    var from: UInt64 = 0
    var files: [(descriptor: Int32, path: String)] = []
    var directory = false
}
