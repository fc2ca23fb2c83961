import Foundation

/// The bytes a read of the past needs, gathered under the history's lock.
struct HistoryReadSet: Sendable {
    /// The snapshot the replay starts from: its path, bytes and revision; `nil` when none was asked for.
    var snapshot: (path: String, bytes: Data, revision: UInt64)?
    /// The segments of the state's history after it, in order, each with the revision up to which its records are
    /// the state's (`nil`: all of them).
    var segments: [(segment: HistorySegment, limit: UInt64?)]
    /// The oldest revision whose state the history can give; `nil` before it holds a snapshot.
    var oldestRevision: UInt64?
}

extension HistoryArchive {
    /// The live journal's segments in the state file's directory, read.
    func liveSegments(headerOnly: Bool = false) -> [HistorySegment] {
        let names = (try? fileSystem.contentsOfDirectory(stateDirectory)) ?? []
        return names.compactMap { name -> (UInt64, String)? in
            JournalSegmentFormat.baseRevision(ofSegment: name, fileName: stateFileName).map { ($0, name) }
        }
        .sorted { $0.0 < $1.0 }
        .compactMap { _, name in
            let path = stateDirectory + "/" + name
            guard let data = try? fileSystem.readFile(at: path) else { return nil }
            return HistorySegment(path: path, bytes: [UInt8](data), headerOnly: headerOnly)
        }
    }

    /// Gathers what a read of the state in `lineage` needs: with `snapshotAtOrBefore`, the newest snapshot of the
    /// state's history at or before that revision and the segments after it; otherwise the segments whose changes
    /// come after `after`. A snapshot is checked against the manifest's checksum; segments by their records'.
    /// With `segmentHeadersOnly`, the segments are scanned up to their headers only (``HistorySegment/fullyScanned()``
    /// scans the rest).
    ///
    /// - Throws: ``HistoryError/damaged(path:reason:)`` for a file that fails its check or cannot be read.
    func gather(
        lineage: String, snapshotAtOrBefore target: UInt64?, after: UInt64 = 0, segmentHeadersOnly: Bool = false
    ) throws(HistoryError) -> HistoryReadSet {
        try state.withLock { archive throws(HistoryError) -> HistoryReadSet in
            let live = liveSegments(headerOnly: segmentHeadersOnly)
            let liveLinks = live.compactMap { segment -> (lineage: String, relabels: String?, baseRevision: UInt64)? in
                guard let header = segment.header, header.startsLineage else { return nil }
                return (header.lineage.rawValue, header.relabels?.rawValue, header.baseRevision)
            }
            let chain = Self.chain(
                of: lineage, links: Self.links(archive.manifest.files, live: archive.liveLinks + liveLinks))
            let files = archive.manifest.files.filter { Self.belongs($0, to: chain) }
            let snapshots = files.filter { $0.kind == .snapshot }
            var set = HistoryReadSet(segments: [], oldestRevision: Self.oldestReachable(files, chain: chain))
            var from = after
            var chosen: HistoryFileRecord?
            if let target {
                guard let oldest = set.oldestRevision, target >= oldest else { return set }
                chosen = snapshots.filter({ $0.firstRevision <= target }).max(by: {
                    $0.firstRevision < $1.firstRevision
                })
                guard let chosen else { return set }
                from = chosen.firstRevision
            }
            let segmentRecords = files.filter { record in
                record.kind == .segment && record.lastRevision > from
                    && !(target.map { record.firstRevision >= $0 } ?? false)
            }
            // Segments are checked by their records' CRC-32C as the walk reads them; snapshots, whose JSON a flipped
            // bit may leave readable, by the whole file's CRC-32C the manifest holds.
            let (snapshotRead, segmentReads) = readFiles(snapshot: chosen, segments: segmentRecords)
            if let chosen, let snapshotRead {
                set.snapshot = (
                    path(chosen.name), try checked(snapshotRead, of: chosen, &archive), chosen.firstRevision
                )
            }
            for (record, read) in zip(segmentRecords, segmentReads) {
                let bytes = try checked(read, of: record, &archive)
                set.segments.append(
                    (
                        HistorySegment(path: path(record.name), bytes: bytes, headerOnly: segmentHeadersOnly),
                        chain[record.lineage] ?? nil
                    ))
            }
            for segment in live {
                guard let header = segment.header, let limit = chain[header.lineage.rawValue] else { continue }
                if let target, header.baseRevision >= target { continue }
                set.segments.append((segment, limit))
            }
            set.segments.sort { ($0.segment.header?.baseRevision ?? 0) < ($1.segment.header?.baseRevision ?? 0) }
            return set
        }
    }

    /// Records that a read found `path` damaged, when it is a file of the history.
    func noteDamage(path: String, reason: String) {
        guard path.hasPrefix(directory + "/") else { return }
        state.withLock { $0.damaged[(path as NSString).lastPathComponent] = reason }
    }

    /// What reading a history file gave: its bytes, or why they cannot be used and whether the history keeps the
    /// file as damaged.
    typealias FileRead<Bytes> = Result<Bytes, FileReadFailure>

    /// Why a history file's bytes cannot be used.
    struct FileReadFailure: Error {
        var reason: String
        /// Whether the file is recorded as damaged (missing, or not what the manifest recorded); a read that failed
        /// for another reason is not.
        var isDamage: Bool
    }

    /// Reads the snapshot and the segments of a read of the past, the snapshot on the caller's thread and the
    /// segments on another, at once: at 10 MB with 16 MiB of segments, one after the other took a tenth of the read.
    private func readFiles(
        snapshot: HistoryFileRecord?, segments: [HistoryFileRecord]
    ) -> (snapshot: FileRead<Data>?, segments: [FileRead<[UInt8]>]) {
        let reads = ParallelFileReads()
        DispatchQueue.concurrentPerform(iterations: snapshot == nil || segments.isEmpty ? 1 : 2) { part in
            if part == 0, let snapshot {
                reads.snapshot = read(snapshot, hashing: true)
            } else {
                reads.segments = segments.map { record in read(record, hashing: false).map { [UInt8]($0) } }
            }
        }
        return (reads.snapshot, reads.segments)
    }

    /// A history file's bytes, checked against the manifest: the size, and with `hashing` the CRC-32C (the SHA-256
    /// for a file a manifest recorded without one).
    private func read(_ record: HistoryFileRecord, hashing: Bool) -> FileRead<Data> {
        let data: Data?
        do {
            data = try fileSystem.readFile(at: path(record.name))
        } catch {
            return .failure(FileReadFailure(reason: "\(error)", isDamage: false))
        }
        guard let data else { return .failure(FileReadFailure(reason: "the file is missing", isDamage: true)) }
        let intact =
            !hashing
            || (record.crc32c.map { CRC32C.checksum(data) == $0 } ?? (SHA256Digest.hex(data) == record.sha256))
        guard data.count == record.bytes, intact else {
            let reason =
                "its \(record.crc32c == nil ? "SHA-256" : "CRC-32C") is not the one the manifest recorded "
                + "(\(data.count) bytes, \(record.bytes) recorded)"
            return .failure(FileReadFailure(reason: reason, isDamage: true))
        }
        return .success(data)
    }

    /// The bytes `read` gave of `record`'s file, or the error naming it, with the damage recorded in `archive`.
    private func checked<Bytes>(
        _ read: FileRead<Bytes>, of record: HistoryFileRecord, _ archive: inout ArchiveState
    ) throws(HistoryError) -> Bytes {
        switch read {
        case .success(let bytes):
            return bytes
        case .failure(let failure):
            if failure.isDamage { archive.damaged[record.name] = failure.reason }
            throw .damaged(path: path(record.name), reason: failure.reason)
        }
    }

    /// Walks the change records of `set` after `from`, in revision order, through `through`, calling `body` for each
    /// until it returns `false`; returns the last revision walked.
    ///
    /// - Throws: ``HistoryError/damaged(path:reason:)`` when a revision is missing before `through` (naming the
    ///   segment where the sequence breaks, or the one whose damaged tail ends it).
    static func walk(
        _ set: HistoryReadSet, from: UInt64, through: UInt64,
        _ body: (HistorySegment.Record) throws(HistoryError) -> Bool
    ) throws(HistoryError) -> UInt64 {
        var marker: (segment: Int, parsed: (Range<Int>, JournalSegmentFormat.Marker?)?) = (-1, nil)
        return try walkLocations(set, from: from, through: through) { index, location throws(HistoryError) in
            if marker.segment != index { marker = (index, nil) }
            return try body(set.segments[index].segment.record(at: location, previous: &marker.parsed))
        }
    }

    /// ``walk(_:from:through:_:)`` by the records' places: `body` is given the index of the segment in `set` and
    /// where the record is in it, and reads no marker.
    static func walkLocations(
        _ set: HistoryReadSet, from: UInt64, through: UInt64,
        _ body: (Int, HistorySegment.ChangeLocation) throws(HistoryError) -> Bool
    ) throws(HistoryError) -> UInt64 {
        var current = from
        var damagedTail: HistorySegment?
        for (index, (segment, limit)) in set.segments.enumerated() {
            if segment.scan.damage != nil { damagedTail = segment }
            for location in segment.changeLocations {
                if let limit, location.revision > limit { break }
                if location.revision <= current { continue }
                guard location.revision == current + 1 else {
                    throw .damaged(
                        path: segment.path,
                        reason:
                            "its changes start at revision \(location.revision), the history before holds up to \(current)"
                    )
                }
                guard current < through else { return current }
                let goesOn = try body(index, location)
                current = location.revision
                if current == through || !goesOn { return current }
            }
        }
        guard current >= through || through == .max else {
            if let damagedTail, let damage = damagedTail.scan.damage {
                throw .damaged(path: damagedTail.path, reason: "\(damage) at byte \(damagedTail.scan.validLength)")
            }
            throw .damaged(
                path: set.segments.last?.segment.path ?? "(no segment)",
                reason: "the history holds changes up to revision \(current), not \(through)")
        }
        return current
    }
}

/// The results of ``HistoryArchive``'s two reads at once: each written by one iteration of a `concurrentPerform`,
/// read after it returned.
private final class ParallelFileReads: @unchecked Sendable {
    var snapshot: HistoryArchive.FileRead<Data>?
    var segments: [HistoryArchive.FileRead<[UInt8]>] = []
}
