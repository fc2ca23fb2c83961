import FoundationEssentials
import Glibc

extension StateFile {
    /// Backups of this file, newest first: pre-migration, before-restore and manual ones (`<name>.….bak`). With
    /// `includingSetAside`, also the copies loads set aside (`<name>.corrupt-…`: ``BackupInfo/Kind-swift.enum/corrupt``
    /// and ``BackupInfo/Kind-swift.enum/crashedLoad``), which ``restoreBackup(named:salvaging:)`` takes too.
    public func backups(includingSetAside: Bool = false) throws(StateStoreError) -> [BackupInfo] {
        let names: [String]
        do {
            names = try fileSystem.contentsOfDirectory(directory)
        } catch {
            throw .backupFailed(error)
        }
        // Only the crash-loop guard's last set-aside file is known as such; earlier ones are listed as corrupt.
        let crashed = includingSetAside ? crashGuardRecord().lastCrash?.movedTo : nil
        var backups: [BackupInfo] = []
        for name in names {
            guard let (found, version) = backupKind(of: name) else { continue }
            var kind = found
            if kind.isSetAside {
                guard includingSetAside else { continue }
                if directory + "/" + name == crashed { kind = .crashedLoad }
            }
            guard let attributes = try? fileSystem.attributes(of: directory + "/" + name) else { continue }
            backups.append(
                BackupInfo(
                    name: name, path: directory + "/" + name, kind: kind, version: version, size: attributes.size,
                    modificationDate: attributes.modificationDate))
        }
        return backups.sorted { ($0.modificationDate, $0.name) > ($1.modificationDate, $1.name) }
    }

    /// The kind of the file `name` next to the state file, and the version its name says; `nil` for a file that is
    /// no backup. Every `<name>.corrupt-…` is ``BackupInfo/Kind-swift.enum/corrupt`` here.
    private func backupKind(of name: String) -> (BackupInfo.Kind, Int?)? {
        if name.hasPrefix(quarantinePrefix) { return (.corrupt, nil) }
        guard name.hasPrefix(fileName + ".") && name.hasSuffix(".bak") else { return nil }
        let middle = name.dropFirst(fileName.count + 1).dropLast(4)
        if middle.hasPrefix("before-restore") { return (.beforeRestore, nil) }
        if middle.hasPrefix(Self.manualBackupInfix) { return (.manual, nil) }
        if middle.hasPrefix("v"), let number = Int(middle.dropFirst().prefix(while: \.isNumber)) {
            return (.preMigration, number)
        }
        return nil
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
                directory + "/" + (try keepUnique(base: plain + "." + UTCTimestamp.compact(now()), suffix: ".bak"))
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
