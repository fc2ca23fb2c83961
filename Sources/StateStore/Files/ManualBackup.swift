/// What ``StateFile/keepManualBackup()`` did.
public struct ManualBackup: Sendable, Equatable {
    /// The backup holding the state file's bytes: the new `<name>.manual-<UTC timestamp>.bak`, or an earlier
    /// backup that already held the same bytes.
    public var backup: BackupInfo
    /// Whether a new file was made; `false` when an earlier backup already held the same bytes.
    public var isNew: Bool
}
