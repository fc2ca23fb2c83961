import FoundationEssentials
import Glibc
import StateStore

extension SecretsMaintenance {
    /// Starts over: moves `secrets.json.enc` aside to `secrets.json.enc.reset-<UTC timestamp>` (never replacing
    /// an earlier one) and removes `installation.json`, so the next start makes a new installation and a new,
    /// empty token list. The key (file or credential) is kept.
    ///
    /// - Returns: Lines saying what was moved and removed.
    public static func reset(
        at location: SecretsLocation, options: SecretStoreOptions
    ) throws(SecretsMaintenanceError) -> [String] {
        let fileSystem = options.fileSystem
        let file = options.stateFile(location, sealing: ReplaceableSealing())
        defer { file.unlock() }
        do {
            try file.acquireLock()
        } catch {
            throw SecretsMaintenanceError(.locked, "\(error): stop the daemon first")
        }
        var lines: [String] = []
        if fileSystem.exists(location.secretsPath) {
            let target = try moveAside(location, fileSystem: fileSystem, now: options.now())
            lines.append("moved \(location.secretsPath) to \(target)")
        }
        if fileSystem.exists(location.installationPath) {
            do {
                try fileSystem.unlink(location.installationPath)
                try fileSystem.fsyncDirectory(location.directory)
            } catch {
                throw SecretsMaintenanceError(.writeFailed, "cannot remove \(location.installationPath): \(error)")
            }
            lines.append("removed \(location.installationPath)")
        }
        guard !lines.isEmpty else { return ["nothing to reset: there is no secret store in \(location.directory)"] }
        lines.append("the next start makes a new installation with no tokens; the key is kept")
        return lines
    }

    /// Links the store to the first free `secrets.json.enc.reset-<timestamp>[-N]`, makes it durable, then
    /// removes the old name.
    private static func moveAside(
        _ location: SecretsLocation, fileSystem: any FileSystem, now: Date
    ) throws(SecretsMaintenanceError) -> String {
        let base = location.directory + "/" + location.resetPrefix + compactUTC(now)
        for attempt in 0..<1000 {
            let target = attempt == 0 ? base : base + "-\(attempt)"
            do {
                try fileSystem.link(location.secretsPath, to: target)
            } catch {
                if error.errno == EEXIST { continue }
                throw SecretsMaintenanceError(.writeFailed, "cannot move \(location.secretsPath) aside: \(error)")
            }
            do {
                try fileSystem.fsyncDirectory(location.directory)
                try fileSystem.unlink(location.secretsPath)
                try fileSystem.fsyncDirectory(location.directory)
            } catch {
                throw SecretsMaintenanceError(
                    .writeFailed, "kept a copy at \(target), but cannot remove \(location.secretsPath): \(error)")
            }
            return target
        }
        throw SecretsMaintenanceError(.writeFailed, "no free name for \(base)")
    }

    /// `20261122T022100Z`.
    static func compactUTC(_ date: Date) -> String {
        UTCTimestamp.compact(date)
    }
}
