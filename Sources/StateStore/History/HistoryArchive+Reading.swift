import FoundationEssentials

/// The segments a walk of the history reads, gathered under the history's lock.
struct HistoryReadSet: Sendable {
    /// The segments of the state's history, in order, each with the revision up to which its records are the
    /// state's (`nil`: all of them).
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
            guard let bytes = try? fileSystem.readFile(at: path) else { return nil }
            return HistorySegment(path: path, bytes: bytes, headerOnly: headerOnly)
        }
    }

    /// What the history holds of the state in `lineage`, read under the lock: the live journal's segments (scanned
    /// up to their headers with `liveHeadersOnly`), the lineages the state continues with the revision up to which
    /// each is its, and the history's files of those lineages.
    func scope(
        of lineage: String, liveHeadersOnly: Bool, _ archive: ArchiveState
    ) -> (live: [HistorySegment], chain: Chain, files: [HistoryFileRecord]) {
        let live = liveSegments(headerOnly: liveHeadersOnly)
        let liveLinks = live.compactMap { segment -> (lineage: String, relabels: String?, baseRevision: UInt64)? in
            guard let header = segment.header, header.startsLineage else { return nil }
            return (header.lineage.rawValue, header.relabels?.rawValue, header.baseRevision)
        }
        let chain = Self.chain(
            of: lineage, links: Self.links(archive.manifest.files, live: archive.liveLinks + liveLinks))
        return (live, chain, archive.manifest.files.filter { Self.belongs($0, to: chain) })
    }

    /// Gathers the segments whose changes come after `after` in the history of the state in `lineage`, read and
    /// scanned; each is checked by its records' CRC-32C as a walk reads them.
    ///
    /// - Throws: ``HistoryError/damaged(path:reason:)`` for a file that cannot be read or is not the size the
    ///   manifest recorded.
    func gather(lineage: String, after: UInt64 = 0) throws(HistoryError) -> HistoryReadSet {
        try withArchive { archive throws(HistoryError) -> HistoryReadSet in
            // The reads check each file against its record's checksums.
            describeUndescribed(&archive)
            let (live, chain, files) = scope(of: lineage, liveHeadersOnly: false, archive)
            var set = HistoryReadSet(segments: [], oldestRevision: Self.oldestReachable(files, chain: chain))
            for record in files where record.kind == .segment && record.lastRevision > after {
                switch readSegment(record) {
                case .success(let segment):
                    set.segments.append((segment, chain[record.lineage] ?? nil))
                case .failure(let failure):
                    if failure.isDamage { archive.damaged[record.name] = failure.reason }
                    throw .damaged(path: path(record.name), reason: failure.reason)
                }
            }
            for segment in live {
                guard let header = segment.header, let limit = chain[header.lineage.rawValue] else { continue }
                set.segments.append((segment, limit))
            }
            set.segments.sort { ($0.segment.header?.baseRevision ?? 0) < ($1.segment.header?.baseRevision ?? 0) }
            return set
        }
    }

    /// Records that a read found `path` damaged, when it is a file of the history.
    func noteDamage(path: String, reason: String) {
        guard path.hasPrefix(directory + "/") else { return }
        withArchive { $0.damaged[PathText.lastComponent(of: path)] = reason }
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

    /// A history file's bytes, checked against the manifest: the size, and with `hashing` the CRC-32C (the SHA-256
    /// for a file a manifest recorded without one).
    func read(_ record: HistoryFileRecord, hashing: Bool) -> FileRead<Data> {
        let data: Data?
        do {
            data = try fileSystem.readFile(at: path(record.name))
        } catch {
            return .failure(FileReadFailure(reason: "\(error)", isDamage: false))
        }
        guard let data else { return .failure(FileReadFailure(reason: "the file is missing", isDamage: true)) }
        if let failure = check(data, of: record, hashing: hashing) { return .failure(failure) }
        return .success(data)
    }

    /// A segment of the history, read and scanned, checked against the manifest by its size only: a walk checks
    /// each record's CRC-32C as it reads it. Mapped from the file by the real file system when it is large
    /// (``PosixFileSystem/mappedBytes(at:from:)``): a history segment is never written in place once moved in.
    func readSegment(_ record: HistoryFileRecord) -> FileRead<HistorySegment> {
        let bytes: Data?
        do {
            bytes = try fileSystem.bytesInPlace(at: path(record.name))
        } catch {
            return .failure(FileReadFailure(reason: "\(error)", isDamage: false))
        }
        guard let bytes else { return .failure(FileReadFailure(reason: "the file is missing", isDamage: true)) }
        guard bytes.count == record.bytes else { return .failure(mismatch(bytes.count, of: record)) }
        return .success(HistorySegment(path: path(record.name), bytes: bytes))
    }

    /// Why `data`, the bytes of `record`'s file, are not what the manifest recorded (see ``read(_:hashing:)``), or
    /// `nil` when they are.
    func check(_ data: Data, of record: HistoryFileRecord, hashing: Bool) -> FileReadFailure? {
        let intact =
            !hashing
            || (record.crc32c.map { CRC32C.checksum(data) == $0 } ?? (SHA256Digest.hex(data) == record.sha256))
        guard data.count == record.bytes, intact else { return mismatch(data.count, of: record) }
        return nil
    }

    /// The failure of a file of `count` bytes that is not what the manifest recorded of `record`.
    private func mismatch(_ count: Int, of record: HistoryFileRecord) -> FileReadFailure {
        FileReadFailure(
            reason: Self.mismatch(count, of: record, checksum: record.crc32c == nil ? "SHA-256" : "CRC-32C"),
            isDamage: true)
    }

    /// Why a file of `count` bytes is not `record`: its size when that differs from the manifest's, else its
    /// `checksum` (the one compared).
    static func mismatch(_ count: Int, of record: HistoryFileRecord, checksum: String) -> String {
        count == record.bytes
            ? "its \(checksum) is not the one the manifest recorded"
            : "it holds \(count) bytes where the manifest recorded \(record.bytes)"
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
        return try walkLocations(set, from: from, through: through) { index, locations, position throws(HistoryError) in
            if marker.segment != index { marker = (index, nil) }
            return try body(set.segments[index].segment.record(at: locations[position], previous: &marker.parsed))
        }
    }

    /// ``walk(_:from:through:_:)`` by the records' places: `body` is given the index of the segment in `set`, the
    /// segment's ``HistorySegment/changeLocations`` and the position of the record's in them, and reads no marker.
    /// A caller that keeps the records' places keeps ranges of that array rather than a copy of each.
    static func walkLocations(
        _ set: HistoryReadSet, from: UInt64, through: UInt64,
        _ body: (Int, [HistorySegment.ChangeLocation], Int) throws(HistoryError) -> Bool
    ) throws(HistoryError) -> UInt64 {
        var current = from
        var damagedTail: HistorySegment?
        for (index, (segment, limit)) in set.segments.enumerated() {
            if segment.scan.damage != nil { damagedTail = segment }
            let locations = segment.changeLocations
            for (position, location) in zip(locations.indices, locations) {
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
                let goesOn = try body(index, locations, position)
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
