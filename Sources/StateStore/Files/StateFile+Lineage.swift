import FoundationEssentials
import Glibc

/// The lineage and revision a load settled on, and why the lineage is new when it is.
struct ResolvedLineage: Sendable {
    var lineage: Lineage
    var revision: UInt64
    var lineageBreak: LineageBreak?
}

extension StateFile {
    /// The lineage of the loaded state (decided by the last load; a new one before any load).
    public var lineage: Lineage { state.withLock { $0.lineage } }

    /// The revision the file holds: the loaded one, or the one the last encode stamped.
    public var revision: UInt64 { state.withLock { $0.revision } }

    /// Records in the lock file that this owner stops cleanly with the file holding `revision`, so that the next
    /// load continues this lineage instead of starting a new one.
    ///
    /// Call it only when every revision handed out is in the file (``PersistentState/close()`` does, after its
    /// flush). It writes and fsyncs the lock file, with the file's size and modification time: a file replaced
    /// or edited before the next load then no longer matches and gets a new lineage. Does nothing without the
    /// lock or when `revision` is not the revision the file holds.
    /// - Throws: ``StateStoreError/lockFailed(_:)`` when the marker cannot be written; the next load then starts
    ///   a new lineage, which is always safe.
    public func recordCleanStop(revision: UInt64) throws(StateStoreError) {
        let (descriptor, lineage, held) = state.withLock { ($0.lockDescriptor, $0.lineage, $0.revision) }
        guard let descriptor, configuration.locking == .exclusive, held == revision else { return }
        _ = try writeMarker(lineage: lineage, revision: revision, restored: false, descriptor: descriptor)
    }

    /// Records in the lock file that a restore handed the file over as it is now, at `revision` under the new
    /// `lineage`: the next load continues that lineage and reports ``LineageBreak/restored``. Does nothing without
    /// the lock. A load through this same object, which holds the lock already, continues it too.
    /// - Throws: ``StateStoreError/lockFailed(_:)`` when the marker cannot be written; the next load then starts a
    ///   new lineage for an unclean stop, which is safe.
    func recordHandOver(lineage: Lineage, revision: UInt64) throws(StateStoreError) {
        guard let descriptor = state.withLock({ $0.lockDescriptor }), configuration.locking == .exclusive else {
            return
        }
        let marker = try writeMarker(lineage: lineage, revision: revision, restored: true, descriptor: descriptor)
        state.withLock { $0.previousSession = marker }
    }

    /// Writes the marker, with the file's size and modification time, and fsyncs the lock file; returns it.
    private func writeMarker(
        lineage: Lineage, revision: UInt64, restored: Bool, descriptor: Int32
    ) throws(StateStoreError) -> SessionMarker {
        do {
            let stamp = try fileSystem.attributes(of: path).map {
                SessionMarker.FileStamp(size: $0.size, modificationDate: $0.modificationDate)
            }
            let marker = SessionMarker(lineage: lineage, revision: revision, file: stamp, restored: restored)
            try fileSystem.writeLockOwner(descriptor, "\(getpid())\n" + marker.line, path: lockPath)
            try fileSystem.fsync(descriptor, path: lockPath)
            return marker
        } catch {
            throw .lockFailed(error)
        }
    }

    /// Reads what the lock file says about the last owner and replaces it with this process's pid; when it held a
    /// clean stop's marker, the replacement is made durable before any revision can be handed out, so a crash of
    /// this owner is never mistaken for a clean stop. The marker is cleared in place when it can be: the pid and
    /// spaces over the marker's bytes, one `fdatasync` of a file whose size stays (no journal commit for a new
    /// size, as a truncation and an `fsync` need). A pid and one marker line are far below a disk sector's 512
    /// bytes, which a power cut leaves old or new, never mixed. Closes `descriptor` and throws when a marker
    /// cannot be cleared; without one, a pid that cannot be written only leaves the holder unnamed.
    func takeOverSession(_ descriptor: Int32) throws(FileSystemError) -> SessionMarker? {
        let text: Data?
        do {
            text = try fileSystem.readFile(at: lockPath)
        } catch {
            text = nil  // unreadable: no marker to continue from, so the load starts a new lineage
        }
        let previous = text.flatMap { SessionMarker(lockFileText: String(decoding: $0, as: UTF8.self)) }
        let owner = "\(getpid())\n"
        do {
            if previous == nil {
                try fileSystem.writeLockOwner(descriptor, owner, path: lockPath)
            } else if try !fileSystem.overwriteLockOwner(descriptor, owner, path: lockPath) {
                try fileSystem.writeLockOwner(descriptor, owner, path: lockPath)
                try fileSystem.fsync(descriptor, path: lockPath)
            }
        } catch {
            guard previous != nil else { return nil }
            try? fileSystem.close(descriptor, path: lockPath)
            throw error
        }
        return previous
    }

    /// Continues the stored lineage when the last owner stopped cleanly and left exactly this file (or no file);
    /// otherwise a new lineage, with `breaking` or the reason found. The revision is always the stored one, so
    /// revision numbers keep growing across a new lineage too.
    func resolveLineage(
        stored: Lineage?, revision: UInt64, fileSize: Int?, breaking: LineageBreak?
    ) -> ResolvedLineage {
        let fresh = { (reason: LineageBreak) in
            ResolvedLineage(lineage: .random(), revision: revision, lineageBreak: reason)
        }
        guard configuration.locking == .exclusive else {
            // A read-only look: nobody will hand out revisions from it, so it reports what the file says.
            if breaking == nil, let stored { return ResolvedLineage(lineage: stored, revision: revision) }
            return fresh(breaking ?? .notStored)
        }
        let marker = state.withLock { $0.previousSession }
        if breaking == nil || breaking == .noFile, let marker, marker.revision == revision,
            fileStampMatches(marker.file, fileSize: fileSize)
        {
            return ResolvedLineage(
                lineage: marker.lineage, revision: revision, lineageBreak: marker.restored ? .restored : nil)
        }
        if let breaking { return fresh(breaking) }
        if stored == nil { return fresh(.notStored) }
        return fresh(marker == nil ? .uncleanStop : .changedSinceStop)
    }

    /// Whether the state file is as a clean stop left it: absent when it was absent, else the same size and
    /// modification time.
    private func fileStampMatches(_ stamp: SessionMarker.FileStamp?, fileSize: Int?) -> Bool {
        guard let stamp else { return fileSize == nil }
        guard fileSize == stamp.size, let attributes = (try? fileSystem.attributes(of: path)) ?? nil else {
            return false
        }
        return attributes.size == stamp.size && attributes.modificationDate == stamp.modificationDate
    }
}

extension ResolvedLineage {
    init(lineage: Lineage, revision: UInt64) {
        self.init(lineage: lineage, revision: revision, lineageBreak: nil)
    }
}
