import Foundation

/// A backup kept next to a state file.
public struct BackupInfo: Sendable, Equatable {
    /// Why the backup exists.
    public enum Kind: String, Sendable, Hashable {
        /// The original bytes of a file that was migrated, kept before the first save.
        case preMigration = "pre-migration"
        /// The state file as it was before a backup was restored over it.
        case beforeRestore = "before-restore"
    }

    /// The file name, which ``StateFile/restoreBackup(named:)`` takes.
    public var name: String
    /// The full path.
    public var path: String
    /// What kind of backup it is.
    public var kind: Kind
    /// The schema version of a pre-migration backup.
    public var version: Int?
    /// Size in bytes.
    public var size: Int
    /// When it was written.
    public var modificationDate: Date
}

extension StateFile {
    /// Backups of this file, newest first.
    public func backups() throws(StateStoreError) -> [BackupInfo] {
        let names: [String]
        do {
            names = try fileSystem.contentsOfDirectory(directory)
        } catch {
            throw .backupFailed(error)
        }
        var backups: [BackupInfo] = []
        for name in names where name.hasPrefix(fileName + ".") && name.hasSuffix(".bak") {
            let middle = name.dropFirst(fileName.count + 1).dropLast(4)
            let kind: BackupInfo.Kind
            var version: Int?
            if middle.hasPrefix("before-restore") {
                kind = .beforeRestore
            } else if middle.hasPrefix("v"), let number = Int(middle.dropFirst().prefix(while: \.isNumber)) {
                kind = .preMigration
                version = number
            } else {
                continue
            }
            guard let attributes = try? fileSystem.attributes(of: directory + "/" + name) else { continue }
            backups.append(
                BackupInfo(
                    name: name, path: directory + "/" + name, kind: kind, version: version, size: attributes.size,
                    modificationDate: attributes.modificationDate))
        }
        return backups.sorted { ($0.modificationDate, $0.name) > ($1.modificationDate, $1.name) }
    }

    /// Restores the backup called `name` (as listed by ``backups()``) as the state file.
    ///
    /// Takes the lock first (unless locking is off), so a running daemon makes this fail with
    /// ``StateStoreError/locked(lockPath:holder:)``. The backup must be readable by this release. The current file, if any, is first kept as
    /// `<name>.before-restore.<UTC timestamp>.bak`. The restored bytes are written durably and migrated at the
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
            _ = try keepUnique(base: fileName + ".before-restore." + UTCTimestamp.string(from: now()), suffix: ".bak")
        }
        do {
            try writer.write(bytes, to: path)
        } catch {
            throw .writeFailed(error)
        }
        refuseWrites("a backup was restored; load the file again")
    }

    /// Keeps the original bytes of a migrated file as `<name>.v<version>.bak` (or, when that exists,
    /// `<name>.v<version>.<UTC timestamp>.bak`) and prunes old pre-migration backups. Returns the backup's path;
    /// `nil` when there was no file to keep or the pruning removed it at once (`backupsKept` 0).
    @discardableResult
    func keepPreMigrationBackup(version: Int) throws(StateStoreError) -> String? {
        if (try? fileSystem.attributes(of: path)) == nil { return nil }
        let plain = fileName + ".v\(version)"
        var kept = directory + "/" + plain + ".bak"
        if try !keepCopy(at: kept) {
            kept =
                directory + "/" + (try keepUnique(base: plain + "." + UTCTimestamp.string(from: now()), suffix: ".bak"))
        }
        let preMigration = ((try? backups()) ?? []).filter { $0.kind == .preMigration }
        var keptRemains = true
        for old in preMigration.dropFirst(configuration.backupsKept) {
            try? fileSystem.unlink(old.path)
            if old.path == kept { keptRemains = false }
        }
        return keptRemains ? kept : nil
    }

    /// Keeps the state file as `<base>[-N]<suffix>` without replacing anything; returns the name used.
    private func keepUnique(base: String, suffix: String) throws(StateStoreError) -> String {
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
