import FoundationEssentials
import Glibc

/// One segment of the change journal found in the directory.
struct FoundSegment: Sendable, Equatable {
    var baseRevision: UInt64
    var path: String
}

/// What reading the journal gave: the report, and the segments whose records are all in the replayed state (they
/// are removed once a snapshot holding that state is durable).
struct ReplayOutcome: Sendable {
    var replay: JournalReplay
    var replayedSegments: [FoundSegment]
    /// Whether the journal may continue what the load gave (the file as written, or no file); when not, the state
    /// file must be written before a journal continues it.
    var continuesFile: Bool
    /// The lineage the replayed state is in as the journal knows it: the file's stored one, or the one a replayed
    /// segment started; `nil` without a file. The next segment relabels it.
    var lineage: Lineage?
}

extension StateFile {
    /// The path of the journal segment that continues `baseRevision`.
    func journalSegmentPath(baseRevision: UInt64) -> String {
        directory + "/" + JournalSegmentFormat.segmentName(fileName: fileName, baseRevision: baseRevision)
    }

    /// The name prefix of a segment being started, before it is renamed to its own: `.<name>.journal-new-`. Such
    /// a file holds at most a header; a start removes it.
    var journalTemporaryPrefix: String { "." + fileName + ".journal-new-" }

    /// The journal's segments in the directory, oldest first; with `removingLeftovers`, removes segments a crash
    /// left half-started.
    func journalSegments(removingLeftovers: Bool = false) throws(StateStoreError) -> [FoundSegment] {
        let names: [String]
        do {
            names = try fileSystem.contentsOfDirectory(directory)
        } catch {
            throw .journalFailed(path: directory, reason: "cannot list the journal's segments", underlying: error)
        }
        for name in names where removingLeftovers && name.hasPrefix(journalTemporaryPrefix) {
            try? fileSystem.unlink(directory + "/" + name)
        }
        return names.compactMap { name in
            JournalSegmentFormat.baseRevision(ofSegment: name, fileName: fileName).map {
                FoundSegment(baseRevision: $0, path: directory + "/" + name)
            }
        }
        .sorted { $0.baseRevision < $1.baseRevision }
    }

    /// What a start would serve: `loaded` with the change journal's changes replayed, and what the replay found,
    /// without moving, writing or locking anything (for `check` tools and tests). Load with
    /// ``StateFileConfiguration/Locking/none`` to look at a state a running owner holds.
    ///
    /// - Throws: ``StateStoreError/journalFailed(path:reason:underlying:)`` when a segment cannot be read.
    public func replayingJournal<Change: StateChange>(
        _ changeType: Change.Type, onto loaded: LoadedState<Model>
    ) throws(StateStoreError) -> (model: Model, replay: JournalReplay) where Change.Model == Model {
        var model = loaded.model
        let outcome = try replayJournal(Change.self, onto: &model, report: loaded.report, keepingAside: false)
        return (model, outcome.replay)
    }

    /// Replays the journal's changes after the loaded snapshot onto `model`.
    ///
    /// The journal continues the state file only when the load read the file as it was (not quarantined, salvaged,
    /// restored by the crash-loop guard or absent) and each segment's header names the file's stored lineage.
    /// Records the snapshot already holds are skipped; the next one must be the snapshot's revision plus one. The
    /// replay stops at the first record that is damaged, out of sequence, does not decode or does not apply; that
    /// segment and every later one are kept aside (renamed to `<segment>.aside-<UTC time>`, durably) unless
    /// `keepingAside` is `false` (a look that changes nothing). A last record cut short is a crash during its
    /// append, never acknowledged: it is dropped and counted.
    func replayJournal<Change: StateChange>(
        _ changeType: Change.Type, onto model: inout Model, report: LoadReport, keepingAside: Bool = true
    ) throws(StateStoreError) -> ReplayOutcome where Change.Model == Model {
        let clock = ContinuousClock()
        let start = clock.now
        var replay = JournalReplay(snapshotRevision: report.revision)
        var segments: [(found: FoundSegment, segment: HistorySegment)] = []
        var replayed: [FoundSegment] = []
        // Every segment's header names the lineage it relabels, also one that holds no change yet: a snapshot taken
        // at a start's replayed revision, before any change, keeps that segment as the current one, and a crash
        // before the snapshot's compaction leaves the older lineages' segments beside it.
        var headers: [JournalSegmentFormat.Header] = []
        for found in try journalSegments(removingLeftovers: keepingAside) {
            let bytes: Data
            do {
                bytes = try fileSystem.readFile(at: found.path) ?? Data()
            } catch {
                throw .journalFailed(path: found.path, reason: "cannot read the segment", underlying: error)
            }
            // Scanned once (every frame's CRC-32C), for the header, the check below and the replay.
            let segment = HistorySegment(path: found.path, bytes: bytes)
            if let header = segment.header { headers.append(header) }
            // A segment without a change (a header, or a header a crash cut short) loses nothing wherever it is:
            // it is removed with the others once the state is saved.
            if Self.holdsNoChange(segment) {
                replayed.append(found)
            } else {
                segments.append((found, segment))
            }
        }
        var notReplayed: [(FoundSegment, String)] = []
        let continuesFile = replayRefusal(report)
        var lineage = report.storedLineage
        let ancestors = Self.ancestorLineages(of: lineage, in: headers)
        for (index, (segment, read)) in segments.enumerated() {
            if let refusal = continuesFile {
                notReplayed.append((segment, refusal))
                continue
            }
            if replay.stopReason != nil {
                notReplayed.append((segment, "it comes after where the replay stopped"))
                continue
            }
            replay.segmentsRead += 1
            replay.byteCount += read.bytes.count
            let verdict = replaySegment(
                Change.self, read, lineage: &lineage, ancestors: ancestors, onto: &model, replay: &replay)
            switch verdict {
            case .used:
                replayed.append(segment)
            case .stopped(let reason):
                notReplayed.append((segment, reason))
                replay.stopReason = reason
            case .damagedTail(let damage, let offset, let byteCount):
                // The records after the damage were never synced when a later segment continues without them
                // (its base is a snapshot that holds them), or when this is the last one: a crash tore them.
                let next = segments.indices.contains(index + 1) ? segments[index + 1].found : nil
                let continued = next.map { $0.baseRevision <= replay.revision } ?? true
                // By the buffer's own offsets, as the scan counts them, whatever the data's indices.
                if continued, read.bytes.withUnsafeBytes({ Self.isTornTail(damage, $0[offset...]) }) {
                    replay.tornTailByteCount += byteCount
                    replayed.append(segment)
                } else if continued, next != nil {
                    notReplayed.append((segment, "\(damage) at byte \(offset), after the records replayed"))
                } else {
                    let reason = "\(damage) at byte \(offset)"
                    notReplayed.append((segment, reason))
                    replay.stopReason = reason
                }
            }
        }
        for (segment, reason) in notReplayed {
            let movedTo = keepingAside ? try keepJournalSegmentAside(segment.path, reason: reason) : nil
            replay.keptAside.append(JournalReplay.KeptAside(path: segment.path, movedTo: movedTo, reason: reason))
        }
        replay.duration = clock.now - start
        return ReplayOutcome(
            replay: replay, replayedSegments: replayed, continuesFile: continuesFile == nil, lineage: lineage)
    }

    /// Why no segment may be replayed onto what the load gave, or `nil` when the journal may continue it.
    private func replayRefusal(_ report: LoadReport) -> String? {
        if report.crashedLoad != nil {
            return "the crash-loop guard set the state file aside, and replaying may be what crashed"
        }
        if report.lineageBreak == .restored {
            return "a backup was restored over the state file; the journal belongs to the state it replaced"
        }
        switch report.source {
        case .file, .noFile:
            // A file without a stored lineage (written by an older release), like no file, is continued by a journal
            // whose first segment relabels no lineage at the file's revision.
            return nil
        default:
            return "the state file was not loaded as it was written (\(report.source))"
        }
    }

    /// How one segment's replay ended.
    enum SegmentVerdict {
        /// Every record was read.
        case used
        /// The replay stops in this segment.
        case stopped(String)
        /// The records before `offset` were read; the `byteCount` bytes from there are damaged.
        case damagedTail(JournalFraming.Damage, offset: Int, byteCount: Int)
    }

    /// Replays one segment's records.
    private func replaySegment<Change: StateChange>(
        _ changeType: Change.Type, _ segment: HistorySegment, lineage: inout Lineage?,
        ancestors: [Lineage: UInt64], onto model: inout Model, replay: inout JournalReplay
    ) -> SegmentVerdict where Change.Model == Model {
        let scan = segment.scan
        let byteCount = segment.bytes.count
        guard !scan.payloads.isEmpty else {
            // A segment whose header a crash cut short holds no change.
            if let damage = scan.damage { return .damagedTail(damage, offset: 0, byteCount: byteCount) }
            return .used
        }
        guard let header = segment.header else {
            return .stopped("the segment's first record is not a journal header this release reads")
        }
        if header.lineage != lineage, let relabeledAt = ancestors[header.lineage], relabeledAt <= replay.revision,
            Self.lastRevision(segment) <= relabeledAt
        {
            // History of a lineage the state's own continued (a crash's segments, not yet removed when the
            // snapshot that holds them was written): every change in it is in the state.
            replay.recordsAlreadyInSnapshot += scan.payloads.count - 1
            return .used
        }
        if header.lineage != lineage {
            // A segment that started a new lineage without a snapshot continues the state exactly at its base.
            guard header.startsLineage, header.relabels == lineage, header.baseRevision == replay.revision else {
                return .stopped(
                    "the segment continues lineage \(header.lineage)"
                        + (header.startsLineage ? " (from \(header.relabels.map { "\($0)" } ?? "no state file"))" : "")
                        + " at revision \(header.baseRevision), not the state's "
                        + (lineage.map { "\($0)" } ?? "(no state file)") + " at \(replay.revision)")
            }
            lineage = header.lineage
        }
        guard header.baseRevision <= replay.revision else {
            return .stopped(
                "the segment continues revision \(header.baseRevision), after the state's \(replay.revision): "
                    + "the changes between are missing")
        }
        if Self.replayCleanly(Change.self, segment, onto: &model, replay: &replay) { return .used }
        var reader = JournalChangeReader<Change>.Session(JournalChangeReader())
        for range in scan.payloads.dropFirst() {
            guard let (revision, changeBytes) = JournalSegmentFormat.splitChange(segment.slice(range)) else {
                return .stopped(
                    "a record at byte \(range.lowerBound - JournalFraming.frameLength) is too short to be a change")
            }
            // A marker (revision 0) times the changes after it: nothing to replay.
            if revision == 0 { continue }
            if revision <= replay.revision {
                replay.recordsAlreadyInSnapshot += 1
                continue
            }
            guard revision == replay.revision + 1 else {
                return .stopped(
                    "the record after revision \(replay.revision) is revision \(revision): the changes between are "
                        + "missing")
            }
            let change: Change
            do {
                change = try reader.read(changeBytes)
            } catch {
                return .stopped("the change of revision \(revision) does not decode: \(error)")
            }
            do {
                if change.validatesBeforeMutating {
                    try change.apply(to: &model)
                } else {
                    var working = model
                    try change.apply(to: &working)
                    model = working
                }
            } catch {
                return .stopped("the change of revision \(revision) does not apply: \(error)")
            }
            replay.recordsReplayed += 1
            replay.revision = revision
        }
        if let damage = scan.damage {
            return .damagedTail(damage, offset: scan.validLength, byteCount: byteCount - scan.validLength)
        }
        return .used
    }

    /// The lineages `lineage` continued, each with the revision where a segment relabeled it into a lineage that
    /// leads to `lineage` (its history up to there is that of `lineage`).
    private static func ancestorLineages(
        of lineage: Lineage?, in headers: [JournalSegmentFormat.Header]
    ) -> [Lineage: UInt64] {
        var ancestors: [Lineage: UInt64] = [:]
        var known: Set<Lineage> = lineage.map { [$0] } ?? []
        var grew = true
        while grew {
            grew = false
            for header in headers where header.startsLineage && known.contains(header.lineage) {
                guard let older = header.relabels, ancestors[older] == nil, !known.contains(older) else { continue }
                ancestors[older] = header.baseRevision
                known.insert(older)
                grew = true
            }
        }
        return ancestors
    }

    /// The revision of a segment's last whole change record (its base when it has none).
    private static func lastRevision(_ segment: HistorySegment) -> UInt64 {
        segment.bytes.withUnsafeBytes { raw in
            for range in segment.scan.payloads.dropFirst().reversed() {
                if let (revision, _) = JournalSegmentFormat.splitChange(at: range, of: raw), revision > 0 {
                    return revision
                }
            }
            return 0
        }
    }

    /// Whether a segment's bytes hold no change record: nothing, or its header, whole or cut short.
    private static func holdsNoChange(_ segment: HistorySegment) -> Bool {
        let scan = segment.scan
        guard scan.payloads.count <= 1 else { return false }
        guard let damage = scan.damage else { return true }
        return scan.payloads.isEmpty && isTornTail(damage, segment.bytes[...])
    }

    /// Whether damage at the end of a segment is what a crash during an append leaves: a record cut short, or the
    /// zeros of blocks allocated but never written.
    private static func isTornTail(_ damage: JournalFraming.Damage, _ tail: some Collection<UInt8>) -> Bool {
        switch damage {
        case .truncated: true
        case .invalidLength(0): tail.allSatisfy { $0 == 0 }
        default: false
        }
    }

    /// Renames a segment that is not replayed to `<segment>.aside-<UTC time>[-N]`, durably, so that no start
    /// replays or removes it and its bytes stay for a person to read; returns the new path.
    func keepJournalSegmentAside(_ segmentPath: String, reason: String) throws(StateStoreError) -> String {
        let base = segmentPath + ".aside-" + UTCTimestamp.compact(now())
        let target = try placeAtFirstFreeName(base: base, suffix: "") { target throws(StateStoreError) -> Bool in
            do throws(FileSystemError) {
                try fileSystem.link(segmentPath, to: target)
                return true
            } catch {
                if error.errno == EEXIST { return false }
                throw .journalFailed(path: segmentPath, reason: "cannot keep it aside (\(reason))", underlying: error)
            }
        }
        guard let target else {
            throw .journalFailed(
                path: segmentPath, reason: "cannot keep it aside (\(reason))",
                underlying: FileSystemError(operation: "link", path: base, errno: EEXIST))
        }
        do {
            try fileSystem.fsyncDirectory(directory)
            try fileSystem.unlink(segmentPath)
            try fileSystem.fsyncDirectory(directory)
        } catch {
            throw .journalFailed(path: segmentPath, reason: "cannot keep it aside (\(reason))", underlying: error)
        }
        return target
    }
}
