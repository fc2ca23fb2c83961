import FoundationEssentials
import Glibc

extension StateFile {
    /// What names a manual backup: `<name>.manual-<UTC timestamp>.bak`.
    static var manualBackupInfix: String { "manual-" }

    /// Keeps the state file's current bytes as `<name>.manual-<UTC timestamp>[-N].bak`, durably, unless a backup
    /// already holds the same bytes; returns the backup that holds them, or `nil` when there is no state file.
    ///
    /// Takes no lock, so it can run beside the owner of the file: every save is an atomic replace, so the state
    /// file's name always holds one whole save, and the backup is a hard link to that file (or, where the file
    /// system cannot link, a durable copy of its bytes: `EPERM`, `EXDEV`, `ENOTSUP`, `EMLINK`), made durable with
    /// a directory fsync. It holds the state as last saved: an owner that saves with a debounce may have accepted changes since.
    ///
    /// Manual backups are never pruned (``StateFileConfiguration/backupsKept`` counts pre-migration backups only);
    /// ``backups(includingSetAside:)`` lists them and ``restoreBackup(named:salvaging:)`` takes them.
    /// - Throws: ``StateStoreError/backupFailed(_:)`` or ``StateStoreError/backupCopyFailed(linkError:copy:)``
    ///   when the backup cannot be made (nothing is left behind).
    public func keepManualBackup() throws(StateStoreError) -> ManualBackup? {
        do {
            guard try fileSystem.attributes(of: path) != nil else { return nil }
        } catch {
            throw .backupFailed(error)
        }
        let base = fileName + "." + Self.manualBackupInfix + UTCTimestamp.compact(now())
        let kept = directory + "/" + (try keepUnique(base: base, suffix: ".bak"))
        if let earlier = identicalBackup(to: kept), (try? fileSystem.unlink(kept)) != nil {
            return ManualBackup(backup: earlier, isNew: false)
        }
        do {
            try fileSystem.fsyncDirectory(directory)
        } catch {
            try? fileSystem.unlink(kept)
            throw .backupFailed(error)
        }
        guard let backup = try backups().first(where: { $0.path == kept }) else {
            throw .backupFailed(FileSystemError(operation: "stat", path: kept, errno: ENOENT))
        }
        return ManualBackup(backup: backup, isNew: true)
    }
}
