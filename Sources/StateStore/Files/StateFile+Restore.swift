import FoundationEssentials

extension StateFile {
    /// Restores the file `name` (as ``backups(includingSetAside:)`` lists it, set-aside copies included) as the
    /// state file, and records the hand-over so that the next load continues from it cleanly.
    ///
    /// Takes the lock first (unless locking is off), so a running owner makes this fail with
    /// ``StateStoreError/locked(lockPath:holder:)``. The file must load with this release as it is: one that does
    /// not is refused with ``StateStoreError/backupUnreadable(name:reason:)`` and nothing changes, unless
    /// `salvaging` is set and a salvage (``CorruptFilePolicy/salvage``) keeps something: then the salvaged state is
    /// written, as this release writes it, and ``RestoredBackup/salvage`` says what it changed. Otherwise the
    /// restored bytes are written as they are and migrated at the next load. The file restored is only read.
    ///
    /// The current state file, if any, is first kept as `<name>.before-restore.<UTC timestamp>.bak` (unless a
    /// backup already holds its bytes). After the write, the lock file records a clean hand-over to a new lineage
    /// at the restored revision (``LineageBreak/restored``): the next load continues it instead of reporting an
    /// unclean stop, and does not replay onto it a change journal left by the state it replaced. The next load must
    /// follow before anything else is written through this object.
    @discardableResult
    public func restoreBackup(
        named name: String, salvaging: Bool = false
    ) throws(StateStoreError)
        -> RestoredBackup<Model>
    {
        if configuration.locking == .exclusive { try acquireLock() }
        guard let backup = try backups(includingSetAside: true).first(where: { $0.name == name }) else {
            throw .backupNotFound(name: name, directory: directory)
        }
        let stored: Data
        do {
            guard let data = try fileSystem.readFile(at: backup.path) else {
                throw StateStoreError.backupNotFound(name: name, directory: directory)
            }
            stored = data
        } catch let error as StateStoreError {
            throw error
        } catch {
            throw .backupFailed(error as! FileSystemError)
        }
        let decoded = try decodeRestorable(stored, backup: backup, salvaging: salvaging)
        let lineage = Lineage.random()
        let revision = decoded.storedRevision ?? 0
        var bytes = stored
        if decoded.salvage != nil {
            state.withLock {
                $0.writeVersion = nil
                $0.writeMinReaderVersion = nil
                $0.lineage = lineage
            }
            bytes = try encode(decoded.model, revision: revision)
        }
        var previousKeptAs: String?
        if (try? fileSystem.attributes(of: path)) != nil {
            let base = fileName + ".before-restore." + UTCTimestamp.compact(now())
            let kept = keepingOnce(directory + "/" + (try keepUnique(base: base, suffix: ".bak")))
            previousKeptAs = PathText.lastComponent(of: kept)
        }
        do {
            try writer.write(bytes, to: path)
        } catch {
            throw .writeFailed(error)
        }
        refuseWrites("a backup was restored; load the file again")
        var handOverProblem: String?
        do {
            try recordHandOver(lineage: lineage, revision: revision)
        } catch {
            handOverProblem = error.description
        }
        return RestoredBackup(
            backup: backup, model: decoded.model, storedVersion: decoded.storedVersion, revision: revision,
            lineage: lineage, salvage: decoded.salvage, previousKeptAs: previousKeptAs,
            handOverProblem: handOverProblem)
    }

    /// Decodes the bytes of `backup` as a load would; with `salvaging`, salvages a file the strict decode refuses.
    /// Anything that does not give a state is ``StateStoreError/backupUnreadable(name:reason:)``.
    private func decodeRestorable(
        _ bytes: Data, backup: BackupInfo, salvaging: Bool
    ) throws(StateStoreError) -> DecodedState<Model> {
        do {
            return try decodeStored(bytes, path: backup.path)
        } catch {
            guard salvaging, case .corrupt = error else {
                throw .backupUnreadable(name: backup.name, reason: error.description)
            }
        }
        do {
            return try decodeStored(bytes, path: backup.path, salvaging: true)
        } catch {
            throw .backupUnreadable(name: backup.name, reason: error.description)
        }
    }
}
