import FoundationEssentials

/// What a restore will write: the snapshot's bytes, the segments' bytes cut at the point, and what it reaches.
struct ReplicaRestorePlan {
    var snapshot: Data
    var segments: [(base: UInt64, bytes: Data)]
    var report: ReplicaRestoreReport
}

/// Reads a replica for a restore: lists it once, reads and checks objects, and plans the restore of a point.
struct ReplicaReader {
    let target: any ReplicaTarget
    let digest: ReplicaDigest
    private(set) var objectsRead = 0
    private(set) var bytesRead = 0
    private var snapshots:
        [(lineage: String, revision: UInt64, milliseconds: Int64, name: ReplicaObjectName, sha256: String)] = []
    private var pieces: [ReplicatorSegmentKey: [(offset: Int, end: Int, name: ReplicaObjectName, sha256: String)]] = [:]
    private var headers: [ReplicatorSegmentKey: JournalSegmentFormat.Header?] = [:]
    private var firstPieces: [ReplicatorSegmentKey: Data] = [:]

    init(target: any ReplicaTarget, digest: ReplicaDigest) {
        self.target = target
        self.digest = digest
    }

    /// Reads `name` and checks its bytes against `sha256`; with `prefetched` reading that very object, takes its
    /// bytes instead.
    mutating func read(
        _ name: ReplicaObjectName, sha256: String, prefetched: ReplicaPrefetch? = nil
    ) throws(ReplicaRestoreError) -> Data {
        let bytes =
            if let prefetched, prefetched.name == name {
                try prefetched.bytes()
            } else {
                try Self.fetch(name, sha256: sha256, from: target, digest: digest)
            }
        objectsRead += 1
        bytesRead += bytes.count
        return bytes
    }

    /// Reads `name` from `target` and checks its bytes against `sha256`.
    static func fetch(
        _ name: ReplicaObjectName, sha256: String, from target: any ReplicaTarget, digest: ReplicaDigest
    ) throws(ReplicaRestoreError) -> Data {
        let found: (bytes: Data, version: ReplicaObjectVersion)?
        do {
            found = try target.read(name)
        } catch {
            throw ReplicaRestoreError(object: name.rawValue, reason: error.description)
        }
        guard let found else {
            throw ReplicaRestoreError(object: name.rawValue, reason: "listed, but gone when read")
        }
        let actual = digest.sha256Hex(found.bytes)
        guard actual == sha256 else {
            throw ReplicaRestoreError(
                object: name.rawValue, reason: "its bytes have SHA-256 \(actual), its name says \(sha256): refused")
        }
        return found.bytes
    }

    /// The plan of a restore of `point`.
    mutating func plan(_ point: ReplicaRestorePoint) throws(ReplicaRestoreError) -> ReplicaRestorePlan {
        try listObjects()
        let manifest = try readManifest()
        // The latest state's snapshot is, as a rule, the manifest's lineage's newest: read beside the pieces whose
        // headers make the chain of lineages (and so confirm it), which come first.
        var prefetch: ReplicaPrefetch?
        if case .latest = point,
            let newest = snapshots.filter({ $0.lineage == manifest.lineage })
                .max(by: { ($0.revision, $0.milliseconds) < ($1.revision, $1.milliseconds) })
        {
            prefetch = ReplicaPrefetch(newest.name, sha256: newest.sha256, from: target, digest: digest)
        }
        let chain = try chain(from: manifest.lineage)
        let limit = { (lineage: String) -> UInt64 in (chain[lineage] ?? nil) ?? .max }
        let candidates = snapshots.filter { snapshot in
            guard chain[snapshot.lineage] != nil, snapshot.revision <= limit(snapshot.lineage) else { return false }
            switch point {
            case .latest: return true
            case .revision(let revision): return snapshot.revision <= revision
            case .time(let date): return Double(snapshot.milliseconds) / 1000 <= date.timeIntervalSince1970
            }
        }
        guard let chosen = candidates.max(by: { ($0.revision, $0.milliseconds) < ($1.revision, $1.milliseconds) })
        else {
            throw ReplicaRestoreError(
                reason: "the replica holds no snapshot of lineage \(manifest.lineage)'s history at or before \(point)")
        }
        let snapshot = try read(chosen.name, sha256: chosen.sha256, prefetched: prefetch)
        var report = ReplicaRestoreReport(
            lineage: chosen.lineage, revision: chosen.revision,
            time: Date(timeIntervalSince1970: Double(chosen.milliseconds) / 1000), snapshotRevision: chosen.revision,
            segmentsWritten: [], objectsRead: 0, bytesRead: 0, stoppedEarly: nil)
        var segments: [(base: UInt64, bytes: Data)] = []
        let keys = pieces.keys.filter {
            chain[$0.lineage] != nil && $0.base >= chosen.revision && $0.base < limit($0.lineage)
        }
        .sorted { ($0.base, $0.lineage) < ($1.base, $1.lineage) }
        var revision = chosen.revision
        segmentLoop: for key in keys {
            if case .revision(let target) = point, revision >= target { break }
            guard key.base <= revision else {
                report.stoppedEarly = "no segment continues revision \(revision) (the next starts at \(key.base))"
                break
            }
            let (bytes, gap) = try segmentBytes(key)
            let cut = Self.cut(
                bytes, after: revision, lineageLimit: limit(key.lineage), point: point)
            if let gap { report.stoppedEarly = gap }
            if let torn = cut.damage { report.stoppedEarly = "\(key.lineage)/journal.\(key.base): \(torn)" }
            if cut.changes > 0 {
                segments.append((key.base, cut.bytes))
                revision = cut.lastRevision
                report.revision = cut.lastRevision
                report.lineage = key.lineage
                report.time = cut.lastTime ?? report.time
            }
            if gap != nil || cut.damage != nil || cut.reachedPoint { break segmentLoop }
        }
        if case .revision(let target) = point, report.revision != target {
            throw ReplicaRestoreError(
                reason: "the replica reaches revision \(report.revision) of lineage \(report.lineage), not \(target)"
                    + (report.stoppedEarly.map { " (\($0))" } ?? ""))
        }
        return ReplicaRestorePlan(snapshot: snapshot, segments: segments, report: report)
    }

    private mutating func listObjects() throws(ReplicaRestoreError) {
        let objects: [ReplicaObject]
        do {
            objects = try target.list(prefix: "")
        } catch {
            throw ReplicaRestoreError(reason: error.description)
        }
        for object in objects {
            switch ReplicaLayout.parse(object.name) {
            case .snapshot(let lineage, let revision, let milliseconds, let sha256):
                snapshots.append((lineage, revision, milliseconds, object.name, sha256))
            case .piece(let lineage, let base, let offset, let end, let sha256):
                pieces[ReplicatorSegmentKey(lineage: lineage, base: base), default: []].append(
                    (offset, end, object.name, sha256))
            case nil:
                continue
            }
        }
        // By offset, and of pieces at one offset the longest first: a piece the store kept though its upload seemed
        // to fail is shipped again from the same offset, longer.
        for key in pieces.keys { pieces[key]!.sort { ($0.offset, $1.end) < ($1.offset, $0.end) } }
    }

    private mutating func readManifest() throws(ReplicaRestoreError) -> ReplicaManifest {
        let found: (bytes: Data, version: ReplicaObjectVersion)?
        do {
            found = try target.read(ReplicaLayout.manifest)
        } catch {
            throw ReplicaRestoreError(object: ReplicaLayout.manifest.rawValue, reason: error.description)
        }
        guard let found else { throw .nothingReplicated }
        guard let manifest = try? ReplicaLease.decoder.decode(ReplicaManifest.self, from: found.bytes),
            manifest.replica == 1
        else {
            throw ReplicaRestoreError(
                object: ReplicaLayout.manifest.rawValue, reason: "not a manifest this release reads")
        }
        return manifest
    }

    /// The lineages of the state's history, from `lineage` back through the segments that started each one after
    /// a crash: each with the revision up to which its changes are the state's (`nil`: all of them).
    private mutating func chain(from lineage: String) throws(ReplicaRestoreError) -> [String: UInt64?] {
        var chain: [String: UInt64?] = [lineage: nil]
        var current = lineage
        while true {
            var next: (String, UInt64)?
            for key in pieces.keys.filter({ $0.lineage == current }).sorted(by: { $0.base < $1.base }) {
                guard let header = try header(key), header.startsLineage, let relabels = header.relabels else {
                    continue
                }
                next = (relabels.rawValue, header.baseRevision)
                break
            }
            guard let (previous, base) = next, chain[previous] == nil else { return chain }
            chain[previous] = base
            current = previous
        }
    }

    /// The header of a segment, from its first piece.
    private mutating func header(
        _ key: ReplicatorSegmentKey
    ) throws(ReplicaRestoreError) -> JournalSegmentFormat.Header? {
        if let header = headers[key] { return header }
        guard let first = pieces[key]?.first, first.offset == 0 else {
            headers[key] = .some(nil)
            return nil
        }
        let bytes = try read(first.name, sha256: first.sha256)
        firstPieces[key] = bytes
        // Only the first record is read: the piece (up to a whole segment) is not copied.
        let header = bytes.withUnsafeBytes { raw in
            JournalFraming.scan(raw, recordLimit: 1).payloads.first.flatMap {
                JournalSegmentFormat.Header(payload: raw[$0])
            }
        }
        headers[key] = .some(header)
        return header
    }

    /// The segment's bytes, its pieces joined in order and checked; with why it stops short when a piece is
    /// missing.
    private mutating func segmentBytes(_ key: ReplicatorSegmentKey) throws(ReplicaRestoreError) -> (Data, String?) {
        var bytes = Data()
        for piece in pieces[key] ?? [] {
            if piece.end <= bytes.count { continue }  // Bytes already joined.
            guard piece.offset <= bytes.count else {
                return (bytes, "\(key.lineage)/journal.\(key.base) has no piece at offset \(bytes.count)")
            }
            let data: Data
            if piece.offset == 0, let first = firstPieces[key] {
                data = first
            } else {
                data = try read(piece.name, sha256: piece.sha256)
            }
            // A piece that starts inside the bytes joined (shipped again, from an earlier offset, after an upload
            // whose answer was lost) holds the same bytes there, as a segment only grows; only what follows is new.
            let shared = bytes.count - piece.offset
            guard data.count > shared, data.prefix(shared) == bytes.suffix(shared) else {
                return (
                    bytes,
                    "\(key.lineage)/journal.\(key.base): the piece at offset \(piece.offset) differs from the bytes "
                        + "before \(bytes.count)"
                )
            }
            if bytes.isEmpty {
                bytes = data  // The first piece, as read: shared, not copied.
            } else {
                bytes.append(data.dropFirst(shared))
            }
        }
        return (bytes, nil)
    }

    /// A segment's bytes cut after the last change the point includes: whole records only, none past
    /// `lineageLimit`, none after the revision or the time asked for.
    static func cut(
        _ data: Data, after revision: UInt64, lineageLimit: UInt64, point: ReplicaRestorePoint
    ) -> (bytes: Data, changes: Int, lastRevision: UInt64, lastTime: Date?, damage: String?, reachedPoint: Bool) {
        // Read in place, by the buffer's offsets (as the scan counts them): a segment is up to 16 MiB, and a copy to
        // an array (and of its cut back to `Data`) cost a restore two of them. `prefix` cuts by count.
        var end = 0
        var changes = 0
        var last = revision
        var lastTime: Date?
        var reached = false
        let scan = data.withUnsafeBytes { raw -> JournalFraming.Scan in
            let scan = JournalFraming.scan(raw)
            end = scan.payloads.first?.upperBound ?? 0
            var markerTime: Date?
            for range in scan.payloads.dropFirst() {
                guard let (found, change) = JournalSegmentFormat.splitChange(at: range, of: raw) else { break }
                if found == 0 {
                    markerTime =
                        JournalSegmentFormat.Marker(revision: 0, bytes: ArraySlice(raw[change]))?.date ?? markerTime
                    continue
                }
                if found > lineageLimit { reached = true; break }
                switch point {
                case .latest: break
                case .revision(let target) where found > target: reached = true
                case .time(let date) where (markerTime ?? .distantPast) > date: reached = true
                default: break
                }
                if reached { break }
                if found > revision {
                    changes += 1
                    last = found
                    lastTime = markerTime
                }
                end = range.upperBound
            }
            return scan
        }
        if case .revision(let target) = point, last >= target { reached = true }
        let damage = scan.damage.map { "cut at its last whole record: \($0)" }
        return (data.prefix(end), changes, last, lastTime, reached ? nil : damage, reached)
    }
}
