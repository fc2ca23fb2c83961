extension StateFile {
    /// Writes the newest backup whose bytes load (``backups(includingSetAside:)``, newest first) durably as the state file, and
    /// returns its name, what it decoded to and its size; `nil` when none loads.
    ///
    /// What both the crash-loop guard and ``CorruptFileFallback/newestBackup`` serve in place of a file they set
    /// aside, so that a broken file never starts the state from scratch while a good copy is on disk. Only the
    /// kinds that hold a state this file had are tried (``fallbackKinds``).
    func restoreNewestLoadableBackup() throws(StateStoreError) -> (
        name: String, decoded: DecodedState<Model>, byteCount: Int
    )? {
        for backup in (try? backups()) ?? [] where Self.fallbackKinds.contains(backup.kind) {
            guard let bytes = try? fileSystem.readFile(at: backup.path),
                let decoded = try? decodeStored(bytes, path: backup.path)
            else { continue }
            do {
                try writer.write(bytes, to: path)
            } catch {
                throw .writeFailed(error)
            }
            return (backup.name, decoded, bytes.count)
        }
        return nil
    }

    /// The kinds of backup a fallback may serve: states this file held, never a copy set aside because it was
    /// corrupt or crashed its loads.
    static var fallbackKinds: Set<BackupInfo.Kind> { [.preMigration, .beforeRestore, .manual] }
}
