import FoundationEssentials

/// What a read of the past reads, chosen under the history's lock: the snapshot it starts from and the history's
/// segments after it, read after the lock is released, and the live journal's segments, read with the plan.
///
/// While a plan is out (``HistoryArchive/beginPastRead(lineage:atOrBefore:)`` to
/// ``HistoryArchive/endPastRead()``), pruning leaves the files it drops from the manifest on disk, so that the
/// read finds every file it chose; the last read to end unlinks them.
struct HistoryPastReadPlan: Sendable {
    /// The snapshot the replay starts from; `nil` when the history holds none at or before the revision.
    var snapshot: HistoryFileRecord?
    /// The history's segments after the snapshot, each with the revision up to which its records are the state's.
    var segments: [(record: HistoryFileRecord, limit: UInt64?)] = []
    /// The live journal's segments after the snapshot, scanned up to their headers, with their limits.
    var live: [(segment: HistorySegment, limit: UInt64?)] = []
    /// The oldest revision whose state the history can give; `nil` before it holds a snapshot.
    var oldestRevision: UInt64?
}

extension HistoryArchive {
    /// Chooses what a read of the state in `lineage` at `target` reads: the newest snapshot at or before it and the
    /// segments between, and holds the history's files until ``endPastRead()``, which the caller must call once
    /// for each plan, whatever the read gave.
    ///
    /// The files are read outside the lock, the segments on one thread while the snapshot is read and decoded on
    /// another (``HistoryReplayPipeline``), rather than one after the other under the lock before the replay
    /// begins.
    func beginPastRead(lineage: String, atOrBefore target: UInt64) -> HistoryPastReadPlan {
        withArchive { archive in
            // The reads check each file against its record's checksums.
            describeUndescribed(&archive)
            archive.pastReads += 1
            let (live, chain, files) = scope(of: lineage, liveHeadersOnly: true, archive)
            var plan = HistoryPastReadPlan(oldestRevision: Self.oldestReachable(files, chain: chain))
            guard let oldest = plan.oldestRevision, target >= oldest,
                let snapshot = files.filter({ $0.kind == .snapshot && $0.firstRevision <= target })
                    .max(by: { $0.firstRevision < $1.firstRevision })
            else { return plan }
            plan.snapshot = snapshot
            plan.segments = files.filter {
                $0.kind == .segment && $0.lastRevision > snapshot.firstRevision && $0.firstRevision < target
            }
            .map { ($0, chain[$0.lineage] ?? nil) }
            plan.live = live.compactMap { segment in
                guard let header = segment.header, let limit = chain[header.lineage.rawValue],
                    header.baseRevision < target
                else { return nil }
                return (segment, limit)
            }
            return plan
        }
    }

    /// Ends a read of the past (``beginPastRead(lineage:atOrBefore:)``): the last one to end unlinks the files
    /// pruning dropped meanwhile.
    func endPastRead() {
        withArchive { archive in
            archive.pastReads -= 1
            guard archive.pastReads == 0, !archive.unlinkAfterPastReads.isEmpty else { return }
            let kept = Set(archive.manifest.files.map(\.name))
            for name in archive.unlinkAfterPastReads where !kept.contains(name) { try? fileSystem.unlink(path(name)) }
            archive.unlinkAfterPastReads = []
            try? fileSystem.fsyncDirectory(directory)
        }
    }

    /// The bytes of a plan's snapshot, checked against the manifest's CRC-32C (or SHA-256) unless `checking` is
    /// `false` (only its size then, for a caller that checks them on another thread): mapped from the file
    /// by the real file system when it is large, as a load maps the state file (no copy of it in the heap, and
    /// the decode may give its pages back as it goes). The snapshot is never written in place (a save replaces
    /// the state file by rename, and a snapshot is a link of a file a save wrote), so the mapping stays whole.
    ///
    /// - Throws: ``HistoryError/damaged(path:reason:)`` naming the file.
    func readSnapshot(_ record: HistoryFileRecord, checking: Bool = true) throws(HistoryError) -> LoadBytes {
        let loaded: LoadBytes?
        do {
            loaded = try fileSystem.bytesForLoad(at: path(record.name))
        } catch {
            throw .damaged(path: path(record.name), reason: "\(error)")
        }
        guard let loaded else { throw .damaged(path: path(record.name), reason: "the file is missing") }
        if let failure = check(loaded.data, of: record, hashing: checking) {
            throw .damaged(path: path(record.name), reason: failure.reason)
        }
        return loaded
    }

    /// A plan's segments, the history's read and every one scanned whole, in order.
    ///
    /// - Throws: ``HistoryError/damaged(path:reason:)`` naming a file that cannot be read or is not the size the
    ///   manifest recorded.
    func readSegments(_ plan: HistoryPastReadPlan) throws(HistoryError) -> [(segment: HistorySegment, limit: UInt64?)] {
        var segments = plan.live.map { ($0.segment.fullyScanned(), $0.limit) }
        for (record, limit) in plan.segments {
            switch readSegment(record) {
            case .success(let segment):
                segments.append((segment, limit))
            case .failure(let failure):
                throw .damaged(path: path(record.name), reason: failure.reason)
            }
        }
        segments.sort { ($0.0.header?.baseRevision ?? 0) < ($1.0.header?.baseRevision ?? 0) }
        return segments
    }
}
