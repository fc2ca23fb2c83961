import Foundation

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
}

extension StateFile {
    /// The path of the journal segment that continues `baseRevision`.
    func journalSegmentPath(baseRevision: UInt64) -> String {
        directory + "/" + JournalSegmentFormat.segmentName(fileName: fileName, baseRevision: baseRevision)
    }

    /// The journal's segments in the directory, oldest first.
    func journalSegments() throws(StateStoreError) -> [FoundSegment] {
        let names: [String]
        do {
            names = try fileSystem.contentsOfDirectory(directory)
        } catch {
            throw .journalFailed(path: directory, reason: "cannot list the journal's segments", underlying: error)
        }
        return names.compactMap { name in
            JournalSegmentFormat.baseRevision(ofSegment: name, fileName: fileName).map {
                FoundSegment(baseRevision: $0, path: directory + "/" + name)
            }
        }
        .sorted { $0.baseRevision < $1.baseRevision }
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
        let segments = try journalSegments()
        var replayed: [FoundSegment] = []
        var notReplayed: [(FoundSegment, String)] = []
        let continuesFile = replayRefusal(report)
        for (index, segment) in segments.enumerated() {
            if let refusal = continuesFile {
                notReplayed.append((segment, refusal))
                continue
            }
            if replay.stopReason != nil {
                notReplayed.append((segment, "it comes after where the replay stopped"))
                continue
            }
            let bytes: [UInt8]
            do {
                bytes = try fileSystem.readFile(at: segment.path).map { [UInt8]($0) } ?? []
            } catch {
                throw .journalFailed(path: segment.path, reason: "cannot read the segment", underlying: error)
            }
            replay.segmentsRead += 1
            replay.byteCount += bytes.count
            let verdict = replaySegment(
                Change.self, bytes, segment: segment, isLast: index == segments.count - 1,
                storedLineage: report.storedLineage, onto: &model, replay: &replay)
            if let reason = verdict {
                notReplayed.append((segment, reason))
                if replay.stopReason == nil { replay.stopReason = reason }
            } else {
                replayed.append(segment)
            }
        }
        for (segment, reason) in notReplayed {
            let movedTo = keepingAside ? try keepJournalSegmentAside(segment.path, reason: reason) : nil
            replay.keptAside.append(JournalReplay.KeptAside(path: segment.path, movedTo: movedTo, reason: reason))
        }
        replay.duration = clock.now - start
        return ReplayOutcome(replay: replay, replayedSegments: replayed)
    }

    /// Why no segment may be replayed onto what the load gave, or `nil` when the journal may continue it.
    private func replayRefusal(_ report: LoadReport) -> String? {
        if report.crashedLoad != nil {
            return "the crash-loop guard set the state file aside, and replaying may be what crashed"
        }
        switch report.source {
        case .file:
            return report.storedLineage == nil ? "the state file stores no lineage for a journal to continue" : nil
        case .noFile:
            return "there is no state file for the journal to continue"
        default:
            return "the state file was not loaded as it was written (\(report.source))"
        }
    }

    /// Replays one segment's records; returns why the replay stops in it, or `nil` when all of it was used.
    private func replaySegment<Change: StateChange>(
        _ changeType: Change.Type, _ bytes: [UInt8], segment: FoundSegment, isLast: Bool, storedLineage: Lineage?,
        onto model: inout Model, replay: inout JournalReplay
    ) -> String? where Change.Model == Model {
        let scan = JournalFraming.scan(bytes)
        guard let headerRange = scan.payloads.first else {
            // A segment created by a crash before its header was written holds no change.
            if bytes.isEmpty || (isLast && Self.isTruncation(scan.damage)) {
                replay.tornTailByteCount += bytes.count
                return nil
            }
            return "the segment has no readable header (\(scan.damage.map { "\($0)" } ?? "no record"))"
        }
        guard let header = JournalSegmentFormat.Header(payload: bytes[headerRange]) else {
            return "the segment's first record is not a journal header this release reads"
        }
        guard header.lineage == storedLineage else {
            return "the segment continues lineage \(header.lineage), not the state file's "
                + (storedLineage.map { "\($0)" } ?? "(none)")
        }
        guard header.baseRevision <= replay.revision else {
            return "the segment continues revision \(header.baseRevision), after the state's \(replay.revision): "
                + "the changes between are missing"
        }
        let decoder = JSONDecoder()
        for range in scan.payloads.dropFirst() {
            guard let (revision, changeBytes) = JournalSegmentFormat.splitChange(bytes[range]) else {
                return "a record at byte \(range.lowerBound - JournalFraming.frameLength) is too short to be a change"
            }
            if revision <= replay.revision {
                replay.recordsAlreadyInSnapshot += 1
                continue
            }
            guard revision == replay.revision + 1 else {
                return "the record after revision \(replay.revision) is revision \(revision): the changes between are "
                    + "missing"
            }
            let change: Change
            do {
                change = try decoder.decode(Change.self, from: Data(changeBytes))
            } catch {
                return "the change of revision \(revision) does not decode: \(error)"
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
                return "the change of revision \(revision) does not apply: \(error)"
            }
            replay.recordsReplayed += 1
            replay.revision = revision
        }
        if let damage = scan.damage {
            if isLast, Self.isTruncation(damage) {
                replay.tornTailByteCount += bytes.count - scan.validLength
                return nil
            }
            return "\(damage) at byte \(scan.damageOffset ?? scan.validLength)"
        }
        return nil
    }

    private static func isTruncation(_ damage: JournalFraming.Damage?) -> Bool {
        if case .truncated = damage { return true }
        return false
    }

    /// Renames a segment that is not replayed to `<segment>.aside-<UTC time>[-N]`, durably, so that no start
    /// replays or removes it and its bytes stay for a person to read; returns the new path.
    func keepJournalSegmentAside(_ segmentPath: String, reason: String) throws(StateStoreError) -> String {
        let base = segmentPath + ".aside-" + UTCTimestamp.string(from: now())
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
