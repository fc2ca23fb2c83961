import FoundationEssentials

extension HistoryArchive {
    /// Checks every file against the manifest (size, SHA-256) and each segment's frames, header and sequence,
    /// recording what fails in ``ArchiveState/damaged``; returns how many files failed. Reads one file at a time
    /// under the lock and hashes it outside, so that compaction waits for one read at most.
    @discardableResult
    func verifyFiles() -> Int {
        // The start's snapshot, while its checksums are not computed yet, has nothing to be checked against.
        let records = withArchive { archive in archive.manifest.files.filter { $0.name != archive.undescribed } }
        var failed = 0
        for record in records {
            let reason: String?
            let path = path(record.name)
            if record.kind == .snapshot {
                // A snapshot is a whole state file: hashed a piece at a time, never held whole.
                guard let fingerprint = whileKept(record, { try? fingerprint(of: path) }) else { continue }
                reason = Self.problem(of: record, fingerprint)
            } else {
                guard let data = whileKept(record, { try? fileSystem.readFile(at: path) }) else { continue }
                reason = Self.problem(of: record, data, path: path)
            }
            withArchive { archive in
                guard archive.manifest.files.contains(record) else { return }
                archive.damaged[record.name] = reason
            }
            if reason != nil { failed += 1 }
        }
        return failed
    }

    /// What `read` gives, under the lock, while the manifest holds `record`; `nil` when pruning took it meanwhile
    /// (`read`'s own `nil` is then `.some(nil)`: a file that cannot be read).
    private func whileKept<Read>(_ record: HistoryFileRecord, _ read: () -> Read) -> Read? {
        withArchive { archive in archive.manifest.files.contains(record) ? read() : nil }
    }

    /// What is wrong with a snapshot, given the fingerprint of its bytes (`nil`: it cannot be read), or `nil`.
    static func problem(of record: HistoryFileRecord, _ fingerprint: FileFingerprint?) -> String? {
        guard let fingerprint else { return "the file cannot be read" }
        guard fingerprint.bytes == record.bytes, fingerprint.sha256 == record.sha256 else {
            return mismatch(fingerprint.bytes, of: record, checksum: "SHA-256")
        }
        return nil
    }

    /// What is wrong with a file's bytes, or `nil`.
    static func problem(of record: HistoryFileRecord, _ data: Data?, path: String) -> String? {
        guard let data else { return "the file cannot be read" }
        guard data.count == record.bytes, SHA256Digest.hex(data) == record.sha256 else {
            return mismatch(data.count, of: record, checksum: "SHA-256")
        }
        guard record.kind == .segment else { return nil }
        let segment = HistorySegment(path: path, bytes: data)
        guard segment.header != nil else { return "its first record is not a journal header this release reads" }
        if let damage = segment.scan.damage, !isCrashTail(damage) {
            return "\(damage) at byte \(segment.scan.validLength)"
        }
        var previous = segment.header?.baseRevision ?? 0
        for record in segment.changeLocations {
            guard record.revision == previous + 1 else {
                return "revision \(record.revision) follows revision \(previous) in it"
            }
            previous = record.revision
        }
        return nil
    }

    /// Whether damage at a segment's end is what a crash during an append leaves (kept as it was when moved).
    private static func isCrashTail(_ damage: JournalFraming.Damage) -> Bool {
        if case .truncated = damage { return true }
        return damage == .invalidLength(0)
    }
}
