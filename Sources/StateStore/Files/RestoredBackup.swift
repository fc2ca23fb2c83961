/// What ``StateFile/restoreBackup(named:salvaging:)`` put in place of the state file.
public struct RestoredBackup<Model: Sendable>: Sendable {
    /// The file restored, as ``StateFile/backups(includingSetAside:)`` lists it.
    public var backup: BackupInfo
    /// What it holds, as the next load gives it (migrated to the current version, repaired; salvaged with
    /// ``salvage``).
    public var model: Model
    /// The schema version stored in it.
    public var storedVersion: Int
    /// The revision stored in it (0 when it stores none), which the state continues from.
    public var revision: UInt64
    /// The new lineage the restore handed over (``LineageBreak/restored``): the next load continues it.
    public var lineage: Lineage
    /// What a salvage changed, when the file did not load as it was and the restore salvaged it: then the state
    /// file holds the salvaged state, written by this release, and the file restored is left as it was.
    public var salvage: SalvageReport?
    /// The name of the backup holding the state file as it was before (a new `before-restore` one, or an earlier
    /// backup with the same bytes); `nil` when there was no state file.
    public var previousKeptAs: String?
    /// Why the hand-over could not be recorded in the lock file (the next load then starts a new lineage for an
    /// unclean stop); `nil` when it was, or when the file is used without a lock.
    public var handOverProblem: String?
}
