import FoundationEssentials
import Glibc

extension HistoryArchive {
    /// Moves the segments a durable snapshot made redundant into the history, keeps the state file of
    /// `savedRevision` as a snapshot when one is due, and prunes. Called right after the save of `savedRevision`,
    /// before any other save can replace the file.
    ///
    /// It costs a save one directory fsync: the history's, after the files are renamed or linked into it, so that a
    /// moved segment is durable there before any later fsync of the state's directory (the next save's) makes its
    /// removal from the journal durable; until then it is in one place or both, never neither (a start finds it in
    /// the journal, skips its changes as already in the snapshot, and moves it again). The manifest is rewritten
    /// only when a snapshot is kept or files are pruned, about once per generation: moving a segment leaves it
    /// stale, and the next start adopts the files it lacks (computing their records from their bytes), as after a
    /// crash. A segment that cannot be moved is removed, as without history, and ``ArchiveState/failure`` says why.
    func archive(segments: [String], stateFile: String, savedRevision: UInt64, lineage: String, date: Date) {
        let pruned = withArchive { archive -> PruneOutcome? in
            var (moved, failure) = archiveSegments(segments, date: date, &archive)
            var linked = false
            let chain = Self.chain(of: lineage, links: Self.links(archive.manifest.files, live: archive.liveLinks))
            if snapshotDue(chain, archive) {
                let name = HistoryFormat.snapshotName(revision: savedRevision, lineage: lineage)
                do {
                    try fileSystem.link(stateFile, to: path(name))
                    if let fingerprint = try fingerprint(of: path(name)) {
                        archive.manifest.files.append(
                            HistoryFileRecord(
                                name: name, kind: .snapshot, lineage: lineage, relabels: nil, startsLineage: false,
                                firstRevision: savedRevision, lastRevision: savedRevision, firstTime: date,
                                lastTime: date, archivedTime: date, bytes: fingerprint.bytes,
                                sha256: fingerprint.sha256, crc32c: fingerprint.crc32c, decodesAsHeld: true))
                        linked = true
                    }
                } catch let error as FileSystemError where error.errno == EEXIST {
                    // Kept by a compaction that a crash interrupted before the manifest: the next start adopts it.
                } catch {
                    failure = "cannot keep \(stateFile) as \(path(name)): \(error)"
                }
            }
            var pruned: PruneOutcome?
            do {
                if moved || linked { try fileSystem.fsyncDirectory(directory) }
                pruned = prune(now: date, chain: chain, &archive)
                if linked || pruned != nil || manifestBehind.load(ordering: .acquiring) {
                    Self.sort(&archive.manifest.files)
                    try writeManifest(&archive)
                }
            } catch {
                failure = "cannot record the history in \(directory): \(error)"
            }
            archive.failure = failure
            return pruned
        }
        if let pruned {
            hold?.recordPruning(
                dropped: pruned.dropped, removed: pruned.removed, historyBytes: pruned.historyBytes, date: date)
        }
    }

    /// Moves `segments` into the history, as ``archive(segments:stateFile:savedRevision:lineage:date:)`` does but
    /// without keeping a snapshot or pruning: segments a start retires before any save (their records are in the
    /// state file it loaded). The history's directory is synced once they are there; a segment that cannot be moved
    /// is removed, and ``ArchiveState/failure`` says why.
    func moveSegments(_ segments: [String], date: Date) {
        withArchive { archive in
            var (moved, failure) = archiveSegments(segments, date: date, &archive)
            if moved {
                do {
                    try fileSystem.fsyncDirectory(directory)
                } catch {
                    failure = "cannot record the history in \(directory): \(error)"
                }
            }
            if let failure { archive.failure = failure }
        }
    }

    /// Moves each of `segments` into the directory (``archiveSegment(_:date:_:)``), removing one that cannot be
    /// moved; returns whether any was moved (the directory then needs its fsync) and why the last failure failed.
    private func archiveSegments(
        _ segments: [String], date: Date, _ archive: inout ArchiveState
    ) -> (moved: Bool, failure: String?) {
        var moved = false
        var failure: String?
        for source in segments {
            do {
                if try archiveSegment(source, date: date, &archive) { moved = true }
            } catch {
                failure = "cannot move \(source) into \(directory): \(error)"
                try? fileSystem.unlink(source)
            }
        }
        return (moved, failure)
    }

    /// Moves one segment into the directory; returns whether it did (a segment without a change, or one whose bytes
    /// the history already holds, is removed instead).
    private func archiveSegment(_ source: String, date: Date, _ archive: inout ArchiveState) throws -> Bool {
        guard let data = try fileSystem.readFile(at: source) else { return false }
        let segment = HistorySegment(path: source, bytes: data)
        let summary = segment.summary
        guard let header = segment.header, summary.changeCount > 0 else {
            try fileSystem.unlink(source)
            return false
        }
        let sha = SHA256Digest.hex(data)
        var copy = 0
        while true {
            let name = HistoryFormat.segmentName(
                baseRevision: header.baseRevision, lineage: header.lineage.rawValue, copy: copy)
            if let existing = archive.manifest.files.first(where: { $0.name == name }) {
                if existing.sha256 == sha {
                    // Moved by an earlier compaction that a crash kept from removing the journal's name.
                    try fileSystem.unlink(source)
                    return false
                }
                copy += 1
                continue
            }
            if fileSystem.exists(path(name)) {
                copy += 1
                continue
            }
            try fileSystem.rename(source, to: path(name))
            archive.manifest.files.append(
                HistoryFileRecord(
                    name: name, kind: .segment, lineage: header.lineage.rawValue,
                    relabels: header.relabels?.rawValue, startsLineage: header.startsLineage,
                    firstRevision: header.baseRevision, lastRevision: summary.lastRevision,
                    firstTime: summary.firstTime, lastTime: summary.lastTime, archivedTime: date,
                    bytes: data.count, sha256: sha))
            return true
        }
    }

    /// Whether the file just saved should be kept as a snapshot: the state's history has none yet, or the
    /// segments after its newest one reach ``snapshotInterval``.
    private func snapshotDue(_ chain: Chain, _ archive: ArchiveState) -> Bool {
        let files = archive.manifest.files.filter { Self.belongs($0, to: chain) }
        guard let newest = files.filter({ $0.kind == .snapshot }).map(\.firstRevision).max() else { return true }
        let since = files.filter { $0.kind == .segment && $0.lastRevision > newest }.reduce(0) { $0 + $1.bytes }
        return since >= snapshotInterval
    }

    /// Removes what the retention no longer keeps, oldest first: earlier epochs (one group per lineage), segments no
    /// snapshot leads to, then generations (a snapshot with the segments after it, up to the next snapshot), each
    /// when every change of it is older than ``HistoryConfiguration/keepSeconds`` or while the history is larger
    /// than ``HistoryConfiguration/maximumByteCount``. The newest generation is always kept.
    ///
    /// With a ``HistoryHold``, a group holding a file its reader has not released is kept, and so is everything
    /// newer, while the history is within the hold's maximum; past it the group goes anyway, and the outcome names
    /// its held files. Returns `nil` when nothing was removed.
    func prune(now: Date, chain: Chain, _ archive: inout ArchiveState) -> PruneOutcome? {
        let cutoff = now.addingTimeInterval(-Double(configuration.keepSeconds))
        // Groups oldest first, each with whether it goes whatever its age.
        var groups: [(files: [HistoryFileRecord], due: Bool)] = []
        let others = archive.manifest.files.filter { !Self.belongs($0, to: chain) }
        for lineage in Self.orderedLineages(others) { groups.append((others.filter { $0.lineage == lineage }, false)) }
        let current = archive.manifest.files.filter { Self.belongs($0, to: chain) }
        let snapshots = current.filter { $0.kind == .snapshot }.sorted { $0.firstRevision < $1.firstRevision }
        var unreachable = current.filter { $0.kind == .segment }
        if let first = snapshots.first {
            unreachable = unreachable.filter { $0.lastRevision <= first.firstRevision }
        }
        if !unreachable.isEmpty { groups.append((unreachable, true)) }
        // Every generation but the newest.
        for (index, snapshot) in snapshots.enumerated().dropLast() {
            let next = snapshots[index + 1].firstRevision
            let segments = current.filter {
                $0.kind == .segment && $0.lastRevision > snapshot.firstRevision && $0.firstRevision < next
                    && $0.lastRevision <= next
            }
            groups.append(([snapshot] + segments, false))
        }
        let held = hold?.held(archive.manifest.files.map(\.name)) ?? []
        let holdMaximum = hold?.maximumByteCount ?? 0
        let historyBytes = archive.manifest.files.reduce(0) { $0 + $1.bytes }
        var total = historyBytes
        var removed: [HistoryFileRecord] = []
        var dropped: [HistoryFileRecord] = []
        for group in groups {
            let newest = group.files.map(\.newestTime).max() ?? .distantPast
            guard group.due || newest < cutoff || total > configuration.maximumByteCount else { continue }
            let heldFiles = group.files.filter { held.contains($0.name) }
            // Kept for the reader, with everything newer: the history is pruned from its oldest end only.
            if !heldFiles.isEmpty, total <= holdMaximum { break }
            removed += group.files
            dropped += heldFiles
            total -= group.files.reduce(0) { $0 + $1.bytes }
        }
        guard !removed.isEmpty else { return nil }
        let names = Set(removed.map(\.name))
        if archive.pastReads > 0 {
            // A read of the past may still read them: the last read to end unlinks them.
            archive.unlinkAfterPastReads.formUnion(names)
        } else {
            for name in names { try? fileSystem.unlink(path(name)) }
            try? fileSystem.fsyncDirectory(directory)
        }
        archive.manifest.files.removeAll { names.contains($0.name) }
        for name in names { archive.damaged[name] = nil }
        return PruneOutcome(
            removed: names,
            dropped: dropped.map {
                HistoryHoldEvent.DroppedFile(
                    name: $0.name, byteCount: $0.bytes, firstRevision: $0.firstRevision, lastRevision: $0.lastRevision)
            }, historyBytes: historyBytes)
    }

    /// What a pruning removed, for the ``HistoryHold`` (told once the archive's lock is released).
    struct PruneOutcome {
        /// Every file removed.
        var removed: Set<String>
        /// The removed files the hold kept: the reader had not released them.
        var dropped: [HistoryHoldEvent.DroppedFile]
        /// The history's bytes before the pruning.
        var historyBytes: Int
    }

    /// The lineages of `files`, in the order of their oldest file.
    static func orderedLineages(_ files: [HistoryFileRecord]) -> [String] {
        var seen: [String] = []
        for file in files.sorted(by: { $0.archivedTime < $1.archivedTime }) where !seen.contains(file.lineage) {
            seen.append(file.lineage)
        }
        return seen
    }

    /// Writes `bytes` (the initial state, encoded as a save would) as the snapshot of `revision` in `lineage`, durably,
    /// when the state's history (in `chainLineage`) has no snapshot of that revision: a state that starts without a
    /// file has no saved file to link.
    func keepInitialSnapshot(_ bytes: Data, revision: UInt64, lineage: String, chainLineage: String) {
        withArchive { archive in
            let chain = Self.chain(
                of: chainLineage, links: Self.links(archive.manifest.files, live: archive.liveLinks))
            guard archive.failure == nil, chain[lineage] != nil,
                !archive.manifest.files.contains(where: {
                    $0.kind == .snapshot && $0.firstRevision == revision && Self.belongs($0, to: chain)
                })
            else { return }
            let name = HistoryFormat.snapshotName(revision: revision, lineage: lineage)
            let date = Date()
            do {
                try DurableWriter(fileSystem: fileSystem, mode: fileMode).write(bytes, to: path(name))
                archive.manifest.files.append(
                    HistoryFileRecord(
                        name: name, kind: .snapshot, lineage: lineage, relabels: nil, startsLineage: false,
                        firstRevision: revision, lastRevision: revision, firstTime: date, lastTime: date,
                        archivedTime: date, bytes: bytes.count, sha256: SHA256Digest.hex(bytes),
                        crc32c: CRC32C.checksum(bytes), decodesAsHeld: true))
                Self.sort(&archive.manifest.files)
                try writeManifest(&archive)
            } catch {
                archive.failure = "cannot write \(path(name)): \(error)"
            }
        }
    }

    /// Writes the manifest when it lacks records the start added: the files its open adopted, the snapshot it
    /// kept (``keepStartingSnapshot``); a no-op otherwise, and after ``close()``. Called on the save queue once the
    /// start is over, when the snapshot's checksums are filled in (``describeStartingSnapshot()``), so that the
    /// next start reads the records instead of hashing the files to adopt them. A failure is left for the next
    /// write, ``close()``'s, or that adoption to make up.
    ///
    /// When the open adopted nothing, the only record the manifest on disk lacks until the next archiving (which
    /// writes the manifest itself and clears ``manifestBehind``) is the snapshot's, a link of the state file, whose
    /// bytes the save, restore or import that wrote it made durable: so no syncfs(2) first. (A syncfs here flushed
    /// every dirty page of the file system while holding the archive's lock, and a clean stop right after a start
    /// waited for it: 44 ms for SIGTERM → exit at 50 MB instead of 11.) Adopted segments were moved here without
    /// an fsync of their own, so their records are written after one.
    func writeManifestIfBehind() {
        guard manifestBehind.load(ordering: .acquiring) else { return }
        withArchive { writeManifestIfBehind(&$0) }
    }

    /// ``writeManifestIfBehind()``'s write, under the lock: nothing once the archive failed or closed.
    private func writeManifestIfBehind(_ archive: inout ArchiveState) {
        guard manifestBehind.load(ordering: .acquiring), archive.failure == nil, !archive.closed else { return }
        do {
            try writeManifest(&archive, syncingFileSystem: archive.adoptedUnwritten)
        } catch {
            // Not a failure of the history: every file is durable, only its record is not written yet.
        }
    }

    /// Fills in the checksums of the snapshot the start kept (``ArchiveState/undescribed``), hashing it outside the
    /// lock, then writes the manifest if it is behind (also when the start kept no snapshot: the files its open
    /// adopted): run on the save queue after the start. Anything that needed the record whole meanwhile filled it
    /// in itself; after ``close()``, nothing is written.
    func describeStartingSnapshot() {
        guard let name = withArchive({ $0.undescribed }) else {
            // No snapshot kept, but the open may have adopted files.
            writeManifestIfBehind()
            return
        }
        let record = describe(name, archivedTime: Date())
        withArchive { archive in
            guard archive.undescribed == name, !archive.closed else { return }
            Self.fill(name, with: record, &archive)
        }
        writeManifestIfBehind()
    }

    /// ``describeStartingSnapshot()``'s work under the lock, hashing here: for a manifest write or a read of the
    /// files that comes first.
    func describeUndescribed(_ archive: inout ArchiveState) {
        guard let name = archive.undescribed else { return }
        Self.fill(name, with: describe(name, archivedTime: Date()), &archive)
    }

    /// Gives the undescribed record `name` the checksums of `described` (its other fields stay the start's), or
    /// drops it when its file could not be read, as a start that could not describe it kept no record.
    private static func fill(_ name: String, with described: HistoryFileRecord?, _ archive: inout ArchiveState) {
        archive.undescribed = nil
        guard let index = archive.manifest.files.firstIndex(where: { $0.name == name }) else { return }
        guard let described else {
            archive.manifest.files.remove(at: index)
            return
        }
        archive.manifest.files[index].bytes = described.bytes
        archive.manifest.files[index].sha256 = described.sha256
        archive.manifest.files[index].crc32c = described.crc32c
    }

    /// Stops the archive's work for a stopping state: writes the manifest if it is behind and its records are
    /// whole. A starting snapshot not described yet is left to the next start, which adopts it from its bytes as
    /// after a crash: a stop right after a start does not hash the state file.
    func close() {
        state.withLock { archive in
            defer { archive.closed = true }
            guard archive.undescribed == nil else { return }
            writeManifestIfBehind(&archive)
        }
    }
}
