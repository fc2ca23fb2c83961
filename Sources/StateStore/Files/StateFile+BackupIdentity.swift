import FoundationEssentials

extension StateFile {
    /// Keeps the backup just made at `kept` only when no earlier backup holds the same bytes; otherwise removes it
    /// and returns the earlier one's path, so that backups of one state (a file restored and migrated again and
    /// again) never push distinct ones out of ``StateFileConfiguration/backupsKept``.
    ///
    /// The comparison is made after the copy was placed, so it compares the bytes kept, even when the state file
    /// is replaced meanwhile (a manual backup takes no lock). Only backups of the same size are read. A backup that
    /// cannot be read or removed counts as different: the worst case is a second copy, never a missing one.
    func keepingOnce(_ kept: String) -> String {
        guard let earlier = identicalBackup(to: kept), (try? fileSystem.unlink(kept)) != nil else { return kept }
        return earlier.path
    }

    /// An earlier backup (``backups(includingSetAside:)``) with the same bytes as the file
    /// at `kept`, newest first.
    func identicalBackup(to kept: String) -> BackupInfo? {
        guard let size = ((try? fileSystem.attributes(of: kept)) ?? nil)?.size else { return nil }
        var keptBytes: Data?
        for backup in (try? backups()) ?? [] where backup.path != kept && backup.size == size {
            if keptBytes == nil {
                guard let bytes = (try? fileSystem.readFile(at: kept)) ?? nil else { return nil }
                keptBytes = bytes
            }
            if let bytes = (try? fileSystem.readFile(at: backup.path)) ?? nil, bytes == keptBytes { return backup }
        }
        return nil
    }
}
