import FoundationEssentials

/// What ``StateFile/writeDown(_:to:)`` wrote and kept.
public struct StateFileDowngrade: Sendable, Equatable {
    /// The bytes written and what the reverse steps did.
    public var downgraded: DowngradedState
    /// Where the file's bytes before the write were kept (`<name>.v<version>.bak`); `nil` when there was no
    /// file.
    public var backupPath: String?
}

extension StateFile {
    /// Replaces the file with `model` written as version `version`, for an older release to read: the current
    /// bytes are kept first as `<name>.v<its version>.bak` (a pre-migration backup, listed and restorable like
    /// one), then the new bytes replace the file with the durable write.
    ///
    /// Requires a successful locked ``load()``. Afterwards this object refuses to write (the file on disk is
    /// older than the model it holds): load again to write the current version.
    ///
    /// - Throws: ``StateStoreError/downgradeRefused(path:_:)`` before anything is written when `version` cannot
    ///   be reached; a backup or write error otherwise (the durable write leaves the old file or the new one).
    @discardableResult
    public func writeDown(_ model: Model, to version: Int) throws(StateStoreError) -> StateFileDowngrade {
        let (refusal, onDisk) = state.withLock {
            ($0.refusal, $0.pendingBackupVersion ?? $0.writeVersion ?? codec.schema.currentVersion)
        }
        if let refusal { throw .notWritable(path: path, reason: refusal) }
        let downgraded: DowngradedState
        do {
            downgraded = try codec.encode(model, downTo: version)
        } catch {
            throw .downgradeRefused(path: path, error)
        }
        var bytes = downgraded.data
        if let sealing {
            do {
                bytes = try sealing.seal(bytes)
            } catch {
                throw .encodingFailed(path: path, description: "cannot seal: \(error)")
            }
        }
        let backup = try keepPreMigrationBackup(version: onDisk)
        do {
            try writer.write(bytes, to: path)
        } catch {
            throw .writeFailed(error)
        }
        refuseWrites("the file was written as version \(version) for an older release; load it again to write it")
        return StateFileDowngrade(downgraded: downgraded, backupPath: backup)
    }
}
