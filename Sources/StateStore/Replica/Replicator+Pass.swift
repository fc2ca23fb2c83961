import FoundationEssentials

/// A file of the local history or journal a pass may ship.
struct ReplicatorLocalFile {
    enum Kind {
        case snapshot(revision: UInt64, lineage: String)
        case archivedSegment(base: UInt64, lineage: String)
        case liveSegment(base: UInt64)
    }

    var kind: Kind
    var path: String
}

/// What a pass found of the newest change: its revision, lineage and time.
struct ReplicatorNewest {
    var revision: UInt64
    var lineage: String
    var time: Date?
    /// Orders a live segment's change after a history file's of the same revision (the live one is newer).
    var rank: Int
}

extension Replicator {
    /// One pass: the lease, then everything the replica lacks, then the manifest; the status and the observer are
    /// told how it went. Runs on ``queue``.
    func runPass() {
        let now = Date()
        do {
            guard try ensureLease(now: now) else {
                state.withLock { $0.status.passes += 1 }
                return
            }
            try listReplicaOnce()
            let newest = try shipLocalFiles()
            if let newest { try writeManifest(newest, now: now) }
            let recovered = state.withLock { state -> Int in
                let failures = state.status.consecutiveFailures
                state.status.passes += 1
                state.status.consecutiveFailures = 0
                state.status.lastError = nil
                state.status.lastErrorDate = nil
                state.status.lastSuccess = now
                if let newest {
                    state.status.localRevision = newest.revision
                    state.status.replicatedRevision = newest.revision
                    state.status.replicatedLineage = newest.lineage
                    state.status.replicatedRevisionTime = newest.time
                }
                return failures
            }
            if recovered > 0 { observer?(.recovered(failures: recovered)) }
        } catch {
            let failures = state.withLock { state -> Int in
                state.status.passes += 1
                state.status.consecutiveFailures += 1
                state.status.lastError = error.description
                state.status.lastErrorDate = now
                return state.status.consecutiveFailures
            }
            observer?(
                .failed(
                    error: error.description, consecutiveFailures: failures,
                    retryIn: configuration.backoff.delay(afterFailures: failures)))
        }
    }

    /// Learns what the replica holds, once per replicator: the snapshots, and how far each segment reaches.
    private func listReplicaOnce() throws(ReplicaError) {
        guard !state.withLock({ $0.listed }) else { return }
        let objects = try target.list(prefix: "")
        var snapshots: Set<ReplicatorSegmentKey> = []
        var segments: [ReplicatorSegmentKey: ReplicatorShippedPiece] = [:]
        for object in objects {
            switch ReplicaLayout.parse(object.name) {
            case .snapshot(let lineage, let revision, _, _):
                snapshots.insert(ReplicatorSegmentKey(lineage: lineage, base: revision))
            case .piece(let lineage, let base, let offset, let end, let sha256):
                let key = ReplicatorSegmentKey(lineage: lineage, base: base)
                // Pieces follow one another from offset 0: the segment reaches as far as they do without a gap. A
                // piece shipped again from an earlier offset (after an upload whose answer was lost) overlaps the
                // one before it and may reach further.
                let reached = segments[key]?.end ?? 0
                if offset <= reached, end > reached {
                    segments[key] = ReplicatorShippedPiece(offset: offset, end: end, sha256: sha256)
                }
            case nil:
                break
            }
        }
        // A listing is sorted by name and pieces' offsets are padded, so the walk above met them in order.
        state.withLock {
            $0.snapshots.formUnion(snapshots)
            $0.segments.merge(segments) { old, new in old.end >= new.end ? old : new }
            $0.listed = true
        }
    }

    /// The live segments beside the state file, then the snapshots and segments of its history. In that order: a
    /// save moves a segment from the first place to the second, so a segment moved during the listing is in the
    /// history when it is listed, or it is listed live and its read finds it gone (the pass then lists again).
    private func localFiles() throws(ReplicaError) -> [ReplicatorLocalFile] {
        let stateDirectory = PathText.deletingLastComponent(of: stateFilePath)
        let fileName = PathText.lastComponent(of: stateFilePath)
        let historyDirectory = HistoryFormat.directory(ofStateFile: stateFilePath)
        var files: [ReplicatorLocalFile] = []
        do {
            for name in try fileSystem.contentsOfDirectory(stateDirectory) {
                guard let base = JournalSegmentFormat.baseRevision(ofSegment: name, fileName: fileName) else {
                    continue
                }
                files.append(.init(kind: .liveSegment(base: base), path: stateDirectory + "/" + name))
            }
            if fileSystem.exists(historyDirectory) {
                for name in try fileSystem.contentsOfDirectory(historyDirectory) {
                    let path = historyDirectory + "/" + name
                    switch HistoryFormat.parse(name) {
                    case .snapshot(let revision, let lineage):
                        files.append(.init(kind: .snapshot(revision: revision, lineage: lineage), path: path))
                    case .segment(let base, let lineage):
                        // A `.1` copy holds other bytes under a taken name (only after a damaged start): the replica
                        // keeps one segment per lineage and base, the first, and the history need not hold it.
                        guard name.split(separator: ".").count == 3 else {
                            hold?.release(fileNamed: name)
                            continue
                        }
                        files.append(.init(kind: .archivedSegment(base: base, lineage: lineage), path: path))
                    case nil:
                        continue
                    }
                }
            }
        } catch {
            throw ReplicaError(operation: "list the history of \(stateFilePath)", reason: "\(error)")
        }
        // Segments by base revision, oldest first.
        return files.sorted { Self.order($0) < Self.order($1) }
    }

    private static func order(_ file: ReplicatorLocalFile) -> (UInt64, Int) {
        switch file.kind {
        case .archivedSegment(let base, _): (base, 0)
        case .liveSegment(let base): (base, 1)
        case .snapshot(let revision, _): (revision, 2)
        }
    }

    /// Ships every snapshot and segment bytes the replica lacks; returns the newest change found locally.
    private func shipLocalFiles() throws(ReplicaError) -> ReplicatorNewest? {
        // A save that moved a segment while it was listed: list again (three times at most; the next pass ships
        // what a busier journal still hides).
        for _ in 0..<2 {
            if case .some(let newest) = try shipLocalFilesOnce() { return newest }
        }
        return try shipLocalFilesOnce(lastAttempt: true) ?? nil
    }

    /// One listing shipped; `nil` (unless `lastAttempt`) when a listed segment was gone when read.
    private func shipLocalFilesOnce(lastAttempt: Bool = false) throws(ReplicaError) -> ReplicatorNewest?? {
        var newest: ReplicatorNewest?
        func consider(_ candidate: ReplicatorNewest) {
            if let current = newest, (current.revision, current.rank) >= (candidate.revision, candidate.rank) { return }
            newest = candidate
        }
        var seenSegments: Set<ReplicatorSegmentKey> = []
        let files = try localFiles()
        var snapshotTimes: [String: Date] = [:]
        var changeTimes: [String: Date] = [:]
        // Segments first, oldest first, then snapshots: a restore needs a snapshot's earlier segments only for an
        // earlier revision, and a snapshot shipped before the segments it ends would make no state newer.
        for file in files {
            switch file.kind {
            case .archivedSegment, .liveSegment:
                let outcome = try shipSegment(file, seen: &seenSegments)
                if case .archivedSegment = file.kind, outcome.releasesHistoryFile {
                    // Its whole records are on the replica (a history segment no longer grows).
                    hold?.release(fileNamed: PathText.lastComponent(of: file.path))
                }
                switch outcome {
                case .shipped(let shipped):
                    consider(shipped)
                    // The time of the change that ends the segment: a snapshot of that revision holds the state
                    // reached then (the history's manifest keeps whole seconds only).
                    if let time = shipped.time { changeTimes["\(shipped.lineage).\(shipped.revision)"] = time }
                case .skipped: continue
                case .gone: if !lastAttempt { return nil }
                }
            case .snapshot:
                continue
            }
        }
        for file in files {
            guard case .snapshot(let revision, let lineage) = file.kind else { continue }
            if snapshotTimes.isEmpty { snapshotTimes = historySnapshotTimes() }
            let name = PathText.lastComponent(of: file.path)
            try shipSnapshot(
                path: file.path, revision: revision, lineage: lineage,
                time: changeTimes["\(lineage).\(revision)"] ?? snapshotTimes[name])
            hold?.release(fileNamed: name)
            consider(ReplicatorNewest(revision: revision, lineage: lineage, time: nil, rank: 0))
        }
        return newest
    }

    /// Creates the snapshot's object unless the replica holds it.
    private func shipSnapshot(path: String, revision: UInt64, lineage: String, time: Date?) throws(ReplicaError) {
        let key = ReplicatorSegmentKey(lineage: lineage, base: revision)
        guard !state.withLock({ $0.snapshots.contains(key) }) else { return }
        let bytes: Data
        let modified: Date
        do {
            // Pruned since the listing: nothing to ship.
            guard let read = try fileSystem.readFile(at: path) else { return }
            bytes = read
            modified = try time ?? (try fileSystem.attributes(of: path))?.modificationDate ?? Date()
        } catch {
            throw ReplicaError(operation: "read \(path)", reason: "\(error)")
        }
        let name = ReplicaLayout.snapshotName(
            lineage: lineage, revision: revision, milliseconds: Int64(modified.timeIntervalSince1970 * 1000),
            sha256: configuration.digest.sha256Hex(bytes))
        try createObject(name, bytes: bytes)
        state.withLock { _ = $0.snapshots.insert(key) }
    }

    /// When each snapshot was taken, by name, as the history's manifest records it (the state's own clock, which
    /// its journal's markers use too); a snapshot it lacks is dated by its file.
    private func historySnapshotTimes() -> [String: Date] {
        let path = HistoryFormat.directory(ofStateFile: stateFilePath) + "/" + HistoryFormat.manifestName
        guard let bytes = try? fileSystem.readFile(at: path),
            let manifest = bytes.withUnsafeBytes({ HistoryManifest(json: $0) })
        else { return ["": Date.distantPast] }
        // The time of the change a snapshot's revision is, from the segment that ends with it: when the state the
        // snapshot holds was reached, what a restore of a time compares.
        var changeTimes: [String: Date] = [:]
        for file in manifest.files where file.kind == .segment {
            if let time = file.lastTime { changeTimes["\(file.lineage).\(file.lastRevision)"] = time }
        }
        var times: [String: Date] = ["": Date.distantPast]
        for file in manifest.files where file.kind == .snapshot {
            times[file.name] =
                changeTimes["\(file.lineage).\(file.firstRevision)"] ?? file.firstTime ?? file.archivedTime
        }
        return times
    }

    /// What ``shipSegment(_:seen:)`` did.
    enum SegmentOutcome {
        /// Shipped (or already held); the segment's newest change.
        case shipped(ReplicatorNewest)
        /// A segment without a header yet, or one already seen this pass.
        case skipped
        /// The file was gone when read: moved into the history since the listing.
        case gone

        /// Whether a history segment with this outcome is on the replica as far as it ever will be.
        var releasesHistoryFile: Bool {
            if case .gone = self { return false }
            return true
        }
    }

    /// Creates a piece of the segment's whole records past what the replica holds.
    ///
    /// A file seen before is read only from where its whole records ended then, and not at all when its size
    /// and modification time have not changed: a history of 64 MiB is read once per process, not at every pass,
    /// and the open segment only for what was appended since.
    private func shipSegment(
        _ file: ReplicatorLocalFile, seen: inout Set<ReplicatorSegmentKey>
    ) throws(ReplicaError) -> SegmentOutcome {
        let attributes: FileAttributes
        do {
            guard let found = try fileSystem.attributes(of: file.path) else { return .gone }
            attributes = found
        } catch {
            throw ReplicaError(operation: "read \(file.path)", reason: "\(error)")
        }
        let known = state.withLock { $0.files[file.path] }
        if let known, attributes.size >= known.size {
            guard seen.insert(known.key).inserted else { return .skipped }
            if attributes.size == known.size, attributes.modificationDate == known.modified {
                return .shipped(known.newest)
            }
            return try shipAppended(file, known: known, attributes: attributes)
        }
        return try shipWhole(file, attributes: attributes, seen: &seen)
    }

    /// The first read of a segment file in this process: all of it, checked against the replica's last piece.
    private func shipWhole(
        _ file: ReplicatorLocalFile, attributes: FileAttributes, seen: inout Set<ReplicatorSegmentKey>
    ) throws(ReplicaError) -> SegmentOutcome {
        let data: Data
        do {
            guard let read = try fileSystem.readFile(at: file.path) else { return .gone }
            data = read
        } catch {
            throw ReplicaError(operation: "read \(file.path)", reason: "\(error)")
        }
        let bytes = [UInt8](data)
        let scan = JournalFraming.scan(bytes)
        guard let first = scan.payloads.first, let header = JournalSegmentFormat.Header(payload: bytes[first]) else {
            return .skipped
        }
        let key = ReplicatorSegmentKey(lineage: header.lineage.rawValue, base: header.baseRevision)
        guard seen.insert(key).inserted else { return .skipped }
        let shipped = state.withLock { $0.segments[key] }
        if let shipped, shipped.end <= bytes.count {
            let held = configuration.digest.sha256Hex(Data(bytes[shipped.offset..<shipped.end]))
            guard held == shipped.sha256 else {
                throw ReplicaError(
                    operation: "ship \(file.path)",
                    reason: "its bytes \(shipped.offset)..<\(shipped.end) differ from the replica's copy")
            }
        }
        let start = min(shipped?.end ?? 0, scan.validLength)
        try shipPiece(key, bytes: bytes[start..<scan.validLength], at: start)
        let (revision, time) = Self.newestChange(bytes, scan)
        var rank = 1
        if case .liveSegment = file.kind { rank = header.startsLineage ? 3 : 2 }
        let newest = ReplicatorNewest(
            revision: revision ?? header.baseRevision, lineage: key.lineage, time: time, rank: rank)
        remember(file, attributes: attributes, key: key, validEnd: scan.validLength, newest: newest)
        return .shipped(newest)
    }

    /// A segment file that grew since a pass read it: only its bytes after the whole records read then.
    private func shipAppended(
        _ file: ReplicatorLocalFile, known: ReplicatorFileProgress, attributes: FileAttributes
    ) throws(ReplicaError) -> SegmentOutcome {
        let shippedEnd = state.withLock { $0.segments[known.key]?.end } ?? 0
        let start = min(shippedEnd, known.validEnd)
        let bytes: [UInt8]
        do {
            guard let opened = try ReadOnlyFile(path: file.path) else { return .gone }
            // The header first: a segment of another lineage that took the name since (a start after a crash)
            // is read whole instead.
            let head = try opened.read(at: 0, upTo: 4096)
            let headScan = JournalFraming.scan(head, recordLimit: 1)
            guard let first = headScan.payloads.first,
                let header = JournalSegmentFormat.Header(payload: head[first]),
                header.lineage.rawValue == known.key.lineage, header.baseRevision == known.key.base
            else {
                state.withLock { _ = $0.files.removeValue(forKey: file.path) }
                var seen: Set<ReplicatorSegmentKey> = []
                return try shipWhole(file, attributes: attributes, seen: &seen)
            }
            bytes = try opened.readToEnd(from: start)
        } catch let error as ReplicaError {
            throw error
        } catch {
            throw ReplicaError(operation: "read \(file.path)", reason: "\(error)")
        }
        let scan = JournalFraming.scan(bytes)
        try shipPiece(known.key, bytes: bytes[0..<scan.validLength], at: start)
        var newest = known.newest
        let (revision, time) = Self.newestChange(bytes, scan, headerFirst: false)
        if let revision {
            newest.revision = revision
            newest.time = time ?? newest.time
        }
        remember(file, attributes: attributes, key: known.key, validEnd: start + scan.validLength, newest: newest)
        return .shipped(newest)
    }

    /// Creates the piece of `bytes`, which start at `offset` of the segment `key`; nothing for no bytes.
    private func shipPiece(
        _ key: ReplicatorSegmentKey, bytes: ArraySlice<UInt8>, at offset: Int
    ) throws(ReplicaError) {
        guard !bytes.isEmpty else { return }
        let piece = Data(bytes)
        let end = offset + piece.count
        let sha256 = configuration.digest.sha256Hex(piece)
        let name = ReplicaLayout.pieceName(
            lineage: key.lineage, base: key.base, offset: offset, end: end, sha256: sha256)
        try createObject(name, bytes: piece)
        state.withLock { $0.segments[key] = ReplicatorShippedPiece(offset: offset, end: end, sha256: sha256) }
    }

    private func remember(
        _ file: ReplicatorLocalFile, attributes: FileAttributes, key: ReplicatorSegmentKey, validEnd: Int,
        newest: ReplicatorNewest
    ) {
        state.withLock {
            $0.files[file.path] = ReplicatorFileProgress(
                size: attributes.size, modified: attributes.modificationDate, key: key, validEnd: validEnd,
                newest: newest)
        }
    }

    /// The revision of the segment's last change and the time of the marker before it.
    static func newestChange(
        _ bytes: [UInt8], _ scan: JournalFraming.Scan, headerFirst: Bool = true
    ) -> (UInt64?, Date?) {
        var revision: UInt64?
        for range in scan.payloads.dropFirst(headerFirst ? 1 : 0).reversed() {
            guard let (found, change) = JournalSegmentFormat.splitChange(bytes[range]) else { continue }
            if found != 0 {
                if revision == nil { revision = found }
                continue
            }
            guard revision != nil else { continue }
            return (revision, JournalSegmentFormat.Marker(revision: 0, bytes: change)?.date)
        }
        return (revision, nil)
    }

    /// Creates `name`; an object of that name with other bytes is an error (the replica holds another history
    /// under the same lineage).
    private func createObject(_ name: ReplicaObjectName, bytes: Data) throws(ReplicaError) {
        switch try target.create(name, bytes: bytes) {
        case .created:
            state.withLock {
                $0.status.objectsWritten += 1
                $0.status.bytesWritten += bytes.count
            }
        case .existedWithTheSameBytes:
            break
        case .existedWithOtherBytes:
            throw ReplicaError(operation: "create \(name)", reason: "the replica holds other bytes under that name")
        }
    }

    /// Replaces the manifest when the newest change moved.
    private func writeManifest(_ newest: ReplicatorNewest, now: Date) throws(ReplicaError) {
        let (previous, version) = state.withLock { ($0.manifest, $0.manifestVersion) }
        if let previous, previous.lineage == newest.lineage, previous.revision == newest.revision { return }
        let manifest = ReplicaManifest(
            installation: configuration.installation, lineage: newest.lineage, revision: newest.revision,
            revisionTime: newest.time, written: now)
        let bytes: Data
        do {
            bytes = try ReplicaLease.encoder.encode(manifest)
        } catch {
            throw ReplicaError(operation: "encode the manifest", reason: "\(error)")
        }
        var expected = version
        if previous == nil { expected = try target.read(ReplicaLayout.manifest)?.version }
        var written = try target.replace(ReplicaLayout.manifest, bytes: bytes, ifVersion: expected)
        if written == nil {
            // Changed by another writer since (a host that held the lease before a take-over): the lease says this
            // installation writes now, so replace what is there.
            written = try target.replace(
                ReplicaLayout.manifest, bytes: bytes, ifVersion: try target.read(ReplicaLayout.manifest)?.version)
        }
        guard let written else {
            throw ReplicaError(operation: "replace \(ReplicaLayout.manifest)", reason: "it changed twice meanwhile")
        }
        state.withLock {
            $0.manifest = manifest
            $0.manifestVersion = written
        }
    }
}
