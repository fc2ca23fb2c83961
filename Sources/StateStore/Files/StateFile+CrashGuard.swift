import FoundationEssentials
import Glibc

extension StateFile {
    /// The record of loads in progress: `.<name>.loading` next to the state file.
    public var loadAttemptPath: String { directory + "/." + fileName + ".loading" }

    /// The last time the crash-loop guard set a file aside here, and how many loads of the current file began
    /// without finishing (0 after a finished load); read without the lock, for `check` and status pages.
    public func crashGuardRecord() -> (unfinishedLoads: Int, lastCrash: CrashedLoad?) {
        guard let record = readLoadAttempts() else { return (0, nil) }
        let current = (try? fileSystem.attributes(of: path)) ?? nil
        return (record.isSame(as: current) ? record.attempts : 0, record.lastCrash)
    }

    /// Says that the load finished: the state is in use (a daemon calls it when it reports ready). Until then
    /// the load counts as one that never finished, and after ``StateFileConfiguration/crashedLoadLimit`` of
    /// those in a row for the same file, the next load sets the file aside (``LoadReport/crashedLoad``).
    ///
    /// A failure to write the record is thrown; the state is fine, the next load merely counts one more
    /// unfinished load.
    public func finishedLoading() throws(StateStoreError) {
        guard configuration.crashedLoadLimit != nil, configuration.locking == .exclusive else { return }
        try state.withLock { (state: inout MutableState) throws(StateStoreError) in
            state.countedLoad = nil
            guard let record = readLoadAttempts() else { return }
            if record.attempts == 0 && record.size == nil { return }
            try writeLoadAttempts(
                LoadAttemptRecord(size: nil, modified: nil, attempts: 0, lastCrash: record.lastCrash))
        }
    }

    /// Says that this object's load is being given up for a clean stop (a SIGTERM while loading), not because
    /// it crashed: it no longer counts as unfinished. Safe to call from another thread while the load runs; a
    /// load that had not counted itself yet, or already finished, is left as it is. Errors are ignored: the next
    /// start then counts one load more than it should, never fewer.
    public func stoppedWhileLoading() {
        state.withLock { state in
            guard let counted = state.countedLoad else { return }
            state.countedLoad = nil
            var record = counted
            record.attempts = max(0, counted.attempts - 1)
            try? writeLoadAttempts(record)
        }
    }

    /// Before a load reads the file: counts this load in the record, durably, or, when the same file has already
    /// begun loading the limit number of times without finishing, sets it aside (a quarantined copy) and puts
    /// the newest backup that loads in its place (none: the load starts empty). A record that cannot be written
    /// is ``LoadReport/crashGuardProblem``, not a failed load; a file that cannot be set aside is thrown.
    func guardAgainstCrashedLoads(_ load: inout LoadInProgress) throws(StateStoreError) {
        guard let limit = configuration.crashedLoadLimit, configuration.locking == .exclusive else { return }
        let previous = readLoadAttempts()
        var current: FileAttributes?
        do {
            current = try fileSystem.attributes(of: path)
        } catch {
            throw .readFailed(error)
        }
        var lastCrash = previous?.lastCrash
        if let previous, previous.isSame(as: current), previous.attempts >= limit {
            let crash = try setAsideCrashedFile(attempts: previous.attempts)
            load.report.crashedLoad = crash
            lastCrash = crash
            current = (try? fileSystem.attributes(of: path)) ?? nil
        }
        guard let current else {
            // No file: nothing to load, nothing that can crash.
            if previous != nil {
                do {
                    try writeLoadAttempts(
                        LoadAttemptRecord(size: nil, modified: nil, attempts: 0, lastCrash: lastCrash))
                } catch {
                    load.report.crashGuardProblem = error.description
                }
            }
            return
        }
        // Loads of this very file that began before and never finished; a file put in place by the guard starts
        // at none.
        let sameFile = load.report.crashedLoad == nil && previous?.isSame(as: current) == true
        let begun = sameFile ? previous?.attempts ?? 0 : 0
        let record = LoadAttemptRecord(
            size: current.size, modified: current.modificationDate.timeIntervalSince1970, attempts: begun + 1,
            lastCrash: lastCrash)
        // Under the state's lock, so that a stop on another thread (stoppedWhileLoading) sees the record written
        // and counted, or neither. A record that cannot be written (a full or read-only disk) does not stop the
        // load: the state is served without the guard for this start, and the report says so.
        do {
            try state.withLock { (state: inout MutableState) throws(StateStoreError) in
                try writeLoadAttempts(record)
                state.countedLoad = record
            }
        } catch {
            load.report.crashGuardProblem = error.description
        }
    }

    /// Quarantines the file that crashed its loads, then writes the newest backup whose bytes load in its place.
    private func setAsideCrashedFile(attempts: Int) throws(StateStoreError) -> CrashedLoad {
        let movedTo = try quarantine(reason: "its load never finished \(attempts) times")
        let restoredFrom = try restoreNewestLoadableBackup()?.name
        return CrashedLoad(attempts: attempts, movedTo: movedTo, restoredFrom: restoredFrom, at: now())
    }

    private func readLoadAttempts() -> LoadAttemptRecord? {
        guard let data = (try? fileSystem.readFile(at: loadAttemptPath)) ?? nil else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom(WholeSecondDates.decode)
        // A record that does not read counts as none: the guard then starts counting again.
        return try? decoder.decode(LoadAttemptRecord.self, from: data)
    }

    /// Writes the record: durably, unless it says nothing (no load counted, no crash to tell of), which a load
    /// that finished or was stopped writes and which may be lost (the next load then counts one more unfinished
    /// load, never fewer).
    ///
    /// The record stays between loads and is overwritten in place, padded with spaces to its file's size (JSON
    /// whitespace): a counted load then costs one `pwrite` and one `fdatasync` before the state file is read,
    /// instead of a new file, its fsync, a rename and a directory fsync. A power cut may tear a record so
    /// overwritten; a torn record reads as none, and the guard counts again from there. Where there is none yet,
    /// or the record does not fit, it is written whole by ``DurableWriter``, padded to `recordFileSize`.
    private func writeLoadAttempts(_ record: LoadAttemptRecord) throws(StateStoreError) {
        let saysNothing = record.attempts == 0 && record.lastCrash == nil
        let data: Data
        if let plain = record.plainJSON {
            data = plain
        } else {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            encoder.dateEncodingStrategy = .custom(WholeSecondDates.encode)
            do {
                data = try encoder.encode(record)
            } catch {
                throw .loadRecordFailed(path: loadAttemptPath, description: "\(error)")
            }
        }
        let bytes = data.withUnsafeBytes { [UInt8]($0) }
        do {
            if try fileSystem.overwriteInPlace(bytes, at: loadAttemptPath, padding: 0x20, durably: !saysNothing) {
                return
            }
        } catch {
            throw .loadRecordFailed(path: loadAttemptPath, description: error.description)
        }
        // No record file yet (or one it does not fit in): a record that says nothing needs none.
        if saysNothing {
            do {
                try fileSystem.unlink(loadAttemptPath)
            } catch {
                guard error.errno == ENOENT else {
                    throw .loadRecordFailed(path: loadAttemptPath, description: error.description)
                }
            }
            return
        }
        let padded = bytes + [UInt8](repeating: 0x20, count: max(0, Self.recordFileSize - bytes.count))
        do {
            try writer.write(
                padded.withUnsafeBufferPointer { Data(buffer: $0) }, to: loadAttemptPath,
                temporaryPrefix: DurableWriter.temporaryPrefix(for: path))
        } catch {
            throw .loadRecordFailed(path: loadAttemptPath, description: error.description)
        }
    }

    /// The size the record's file is first written with (512 bytes, one sector), so that the records written
    /// over it later, a crash's account included, fit in place.
    static var recordFileSize: Int { 512 }
}
