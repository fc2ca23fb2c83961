import StateStore
import Systemd
import WorkspaceDaemon
import WorkspaceModel
import WorkspaceStorage

/// What the commands take from the program that runs them, apart from the command line: the `workspaced`
/// executable passes ``shipped``; a test executable passes its own, to widen a window or inject a fault
/// (``Workspaced/main(seams:)``).
package struct WorkspacedSeams: Sendable {
    /// Runs in `workspaced run` between arming the signal latch and creating the signal sources.
    package var afterArming: @Sendable () -> Void
    /// Every state-file operation of `workspaced run` goes through it.
    package var fileSystem: any FileSystem
    /// The service's memory limit in bytes for `workspaced run`; `nil` for none.
    package var memoryLimit: @Sendable () -> UInt64?
    /// How often `workspaced run` extends its start timeout while the state loads.
    package var startTimeoutInterval: Duration
    /// The state file's schema every command reads and writes.
    package var schema: StateSchema<Workspace>
    /// Called once `workspaced run` has its lifecycle, before the daemon starts; what it returns is kept alive
    /// until the process exits.
    package var whileRunning: @Sendable (DaemonLifecycle) -> AnyObject?

    /// What ships: nothing after arming, the real file system, the memory limit of the process's cgroup, a start
    /// timeout extended every second, the shipped schema, nothing kept alive.
    package static var shipped: WorkspacedSeams {
        let memoryLimit = CgroupMemoryLimit()
        return WorkspacedSeams(
            afterArming: {}, fileSystem: PosixFileSystem(), memoryLimit: { memoryLimit.bytes() },
            startTimeoutInterval: .seconds(1), schema: WorkspaceSchema.shipped, whileRunning: { _ in nil })
    }

    /// Seams with every value given.
    package init(
        afterArming: @escaping @Sendable () -> Void, fileSystem: any FileSystem,
        memoryLimit: @escaping @Sendable () -> UInt64?, startTimeoutInterval: Duration,
        schema: StateSchema<Workspace>, whileRunning: @escaping @Sendable (DaemonLifecycle) -> AnyObject?
    ) {
        self.afterArming = afterArming
        self.fileSystem = fileSystem
        self.memoryLimit = memoryLimit
        self.startTimeoutInterval = startTimeoutInterval
        self.schema = schema
        self.whileRunning = whileRunning
    }
}
