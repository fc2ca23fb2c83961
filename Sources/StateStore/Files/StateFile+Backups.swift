import Foundation

extension StateFile {
    /// Backups of this file, newest first: pre-migration, before-restore and manual ones (`<name>.….bak`).
    public func backups() throws(StateStoreError) -> [BackupInfo] {
        let names: [String]
        do {
            names = try fileSystem.contentsOfDirectory(directory)
        } catch {
            throw .backupFailed(error)
        }
        var backups: [BackupInfo] = []
        for name in names {
            guard let (kind, version) = backupKind(of: name) else { continue }
            guard let attributes = try? fileSystem.attributes(of: directory + "/" + name) else { continue }
            backups.append(
                BackupInfo(
                    name: name, path: directory + "/" + name, kind: kind, version: version, size: attributes.size,
                    modificationDate: attributes.modificationDate))
        }
        return backups.sorted { ($0.modificationDate, $0.name) > ($1.modificationDate, $1.name) }
    }

    /// The kind of the file `name` next to the state file, and the version its name says; `nil` for a file that is
    /// no backup.
    private func backupKind(of name: String) -> (BackupInfo.Kind, Int?)? {
        guard name.hasPrefix(fileName + ".") && name.hasSuffix(".bak") else { return nil }
        let middle = name.dropFirst(fileName.count + 1).dropLast(4)
        if middle.hasPrefix("before-restore") { return (.beforeRestore, nil) }
        if middle.hasPrefix(Self.manualBackupInfix) { return (.manual, nil) }
        if middle.hasPrefix("v"), let number = Int(middle.dropFirst().prefix(while: \.isNumber)) {
            return (.preMigration, number)
        }
        return nil
    }

    /// Restores the backup called `name` (as listed by ``backups()``) as the state file.
    ///
    /// Takes the lock first (unless locking is off), so a running daemon makes this fail with
    /// ``StateStoreError/locked(lockPath:holder:)``. The backup must be readable by this release. The current file, if any, is first kept as
    /// `<name>.before-restore.<UTC timestamp>.bak` (unless a backup holds its bytes already). The restored bytes are written durably and migrated at the
    /// next load, which must follow before anything else is written through this object.
    public func restoreBackup(named name: String) throws(StateStoreError) {
        if configuration.locking == .exclusive { try acquireLock() }
        guard let backup = try backups().first(where: { $0.name == name }) else {
            throw .backupNotFound(name: name, directory: directory)
        }
        let bytes: Data
        do {
            guard let data = try fileSystem.readFile(at: backup.path) else {
                throw StateStoreError.backupNotFound(name: name, directory: directory)
            }
            bytes = data
        } catch let error as StateStoreError {
            throw error
        } catch {
            throw .backupFailed(error as! FileSystemError)
        }
        do {
            _ = try codec.decode(bytes)
        } catch {
            throw .backupUnreadable(name: name, reason: error.description)
        }
        if (try? fileSystem.attributes(of: path)) != nil {
            let base = fileName + ".before-restore." + UTCTimestamp.string(from: now())
            _ = keepingOnce(directory + "/" + (try keepUnique(base: base, suffix: ".bak")))
        }
        do {
            try writer.write(bytes, to: path)
        } catch {
            throw .writeFailed(error)
        }
        refuseWrites("a backup was restored; load the file again")
    }

    /// Keeps the original bytes of a migrated file as `<name>.v<version>.bak` (or, when that exists,
    /// `<name>.v<version>.<UTC timestamp>.bak`) and prunes old pre-migration backups; a backup that already holds
    /// the same bytes is kept once (``keepingOnce(_:)``). Returns the path of the backup holding the bytes; `nil`
    /// when there was no file to keep or the pruning removed it at once (`backupsKept` 0).
    @discardableResult
    func keepPreMigrationBackup(version: Int) throws(StateStoreError) -> String? {
        if (try? fileSystem.attributes(of: path)) == nil { return nil }
        let plain = fileName + ".v\(version)"
        var kept = directory + "/" + plain + ".bak"
        if try !keepCopy(at: kept) {
            kept =
                directory + "/" + (try keepUnique(base: plain + "." + UTCTimestamp.string(from: now()), suffix: ".bak"))
        }
        kept = keepingOnce(kept)
        let preMigration = ((try? backups()) ?? []).filter { $0.kind == .preMigration }
        var keptRemains = true
        for old in preMigration.dropFirst(configuration.backupsKept) {
            try? fileSystem.unlink(old.path)
            if old.path == kept { keptRemains = false }
        }
        return keptRemains ? kept : nil
    }

    /// Keeps the state file as `<base>[-N]<suffix>` without replacing anything; returns the name used.
    func keepUnique(base: String, suffix: String) throws(StateStoreError) -> String {
        let name = try placeAtFirstFreeName(base: base, suffix: suffix) { name throws(StateStoreError) -> Bool in
            try keepCopy(at: directory + "/" + name)
        }
        guard let name else {
            throw .backupFailed(
                FileSystemError(operation: "link", path: directory + "/" + base + suffix, errno: EEXIST))
        }
        return name
    }
}
