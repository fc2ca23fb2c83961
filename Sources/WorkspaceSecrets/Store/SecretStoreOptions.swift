import FoundationEssentials
import StateStore

/// How a ``SecretStore`` is opened and saved: the release recorded by a first start, the save timings, the clock
/// and the file-system seam.
public struct SecretStoreOptions: Sendable {
    /// The release a first start records in the installation record.
    public var release: String
    /// Debounce and maximum delay of background saves (token `lastUsedAt` updates); creating and revoking tokens
    /// save at once and wait for the disk.
    public var persistence: PersistenceConfiguration
    /// The timers of background saves; tests pass a manual one.
    public var scheduler: any PersistenceScheduler
    /// Told about saves, failures and recoveries.
    public var observer: (@Sendable (PersistenceEvent) -> Void)?
    /// Every file operation goes through it; tests inject failures.
    public var fileSystem: any FileSystem
    /// The clock for the first-start time, token times and the names of reset files.
    public var now: @Sendable () -> Date
    /// Pre-migration backups kept (`secrets.json.enc.v<N>.bak`, sealed like the store).
    public var backupsKept: Int

    /// Options with the given values; the defaults are the daemon's.
    public init(
        release: String,
        persistence: PersistenceConfiguration = PersistenceConfiguration(),
        scheduler: any PersistenceScheduler = DispatchPersistenceScheduler(),
        observer: (@Sendable (PersistenceEvent) -> Void)? = nil,
        fileSystem: any FileSystem = PosixFileSystem(),
        now: @escaping @Sendable () -> Date = { Date() },
        backupsKept: Int = 3
    ) {
        self.release = release
        self.persistence = persistence
        self.scheduler = scheduler
        self.observer = observer
        self.fileSystem = fileSystem
        self.now = now
        self.backupsKept = backupsKept
    }

    /// The schema, with a first start recording ``release`` at ``now``.
    func schema() -> StateSchema<Secrets> {
        let release = self.release
        let now = self.now
        do {
            return try SecretsSchema.make { InstallationRecord.new(release: release, now: now()) }
        } catch {
            preconditionFailure("the secrets migration chain is invalid: \(error)")
        }
    }

    /// The state file of the store at `location`, sealed through `sealing`, never quarantined; with `locking`
    /// `.none` a load writes nothing (the caller takes the lock itself).
    func stateFile(
        _ location: SecretsLocation, sealing: any StateFileSealing,
        locking: StateFileConfiguration.Locking = .exclusive
    ) -> StateFile<Secrets> {
        StateFile(
            path: location.secretsPath, schema: schema(),
            configuration: StateFileConfiguration(
                corruptFilePolicy: .refuse, backupsKept: backupsKept, fileMode: 0o600, locking: locking),
            sealing: sealing, fileSystem: fileSystem, now: now)
    }
}
