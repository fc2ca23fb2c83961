import FoundationEssentials
import Glibc

extension StateFile {
    /// The prefix of quarantined copies: `<name>.corrupt-`.
    public var quarantinePrefix: String { fileName + ".corrupt-" }

    /// Moves the corrupt file to `<name>.corrupt-<UTC timestamp>[-N]` without replacing any earlier one, makes
    /// the move durable, and keeps only the newest ``StateFileConfiguration/quarantinedFilesKept``.
    ///
    /// The order is link, directory fsync (the copy is durable before the original name goes), unlink, directory
    /// fsync. When any step fails the file is put back as it was (the original name holds the same bytes and the
    /// copy is removed) and ``StateStoreError/quarantineFailed(path:reason:underlying:)`` is thrown.
    func quarantine(reason: String) throws(StateStoreError) -> String {
        let target = try linkDurableCopy(reason: reason)
        do {
            try fileSystem.unlink(path)
        } catch {
            try? fileSystem.unlink(target)
            throw .quarantineFailed(path: path, reason: reason, underlying: error)
        }
        do {
            try fileSystem.fsyncDirectory(directory)
        } catch {
            // Give the bytes their name back; the copy goes only once they have it again.
            if (try? fileSystem.link(target, to: path)) != nil { try? fileSystem.unlink(target) }
            throw .quarantineFailed(path: path, reason: reason, underlying: error)
        }
        pruneQuarantine()
        return target
    }

    /// Keeps the salvaged file's original bytes as `<name>.corrupt-<UTC timestamp>[-N]`, durably, and leaves the
    /// file itself in place until the first save replaces it; returns the copy's path.
    ///
    /// The order is link, directory fsync, so the copy is durable before anything can replace the original. When a
    /// step fails the copy is removed and ``StateStoreError/quarantineFailed(path:reason:underlying:)`` is thrown:
    /// the salvaged state is not used without its original kept.
    func keepCorruptCopy(reason: String) throws(StateStoreError) -> String {
        let target = try linkDurableCopy(reason: reason)
        pruneQuarantine()
        return target
    }

    /// Links the file to the first free `<name>.corrupt-<UTC timestamp>[-N]` and fsyncs the directory; the copy is
    /// removed again when the fsync fails.
    private func linkDurableCopy(reason: String) throws(StateStoreError) -> String {
        let target = try linkQuarantineCopy(reason: reason)
        do {
            try fileSystem.fsyncDirectory(directory)
        } catch {
            try? fileSystem.unlink(target)
            throw .quarantineFailed(path: path, reason: reason, underlying: error)
        }
        return target
    }

    /// Links the corrupt file to the first free `<name>.corrupt-<UTC timestamp>[-N]`; returns that path.
    private func linkQuarantineCopy(reason: String) throws(StateStoreError) -> String {
        let base = directory + "/" + quarantinePrefix + UTCTimestamp.compact(now())
        let target = try placeAtFirstFreeName(base: base, suffix: "") { target throws(StateStoreError) -> Bool in
            do throws(FileSystemError) {
                try fileSystem.link(path, to: target)
                return true
            } catch {
                if error.errno == EEXIST { return false }
                throw .quarantineFailed(path: path, reason: reason, underlying: error)
            }
        }
        guard let target else {
            throw .quarantineFailed(
                path: path, reason: reason, underlying: FileSystemError(operation: "link", path: base, errno: EEXIST))
        }
        return target
    }

    /// Quarantined copies of this file, oldest first.
    public func quarantinedFiles() -> [String] {
        guard let names = try? fileSystem.contentsOfDirectory(directory) else { return [] }
        return names.filter { $0.hasPrefix(quarantinePrefix) }.sorted { lhs, rhs in
            Self.quarantineOrder(lhs, quarantinePrefix) < Self.quarantineOrder(rhs, quarantinePrefix)
        }
    }

    private func pruneQuarantine() {
        let names = quarantinedFiles()
        guard names.count > configuration.quarantinedFilesKept else { return }
        for name in names.prefix(names.count - configuration.quarantinedFilesKept) {
            try? fileSystem.unlink(directory + "/" + name)
        }
        try? fileSystem.fsyncDirectory(directory)
    }

    /// Sort key for `<prefix><timestamp>[-N]`: the timestamp, then N numerically.
    private static func quarantineOrder(_ name: String, _ prefix: String) -> (String, Int) {
        let rest = name.dropFirst(prefix.count)
        guard let dash = rest.firstIndex(of: "-") else { return (String(rest), 1) }
        return (String(rest[..<dash]), Int(rest[rest.index(after: dash)...]) ?? 1)
    }
}
