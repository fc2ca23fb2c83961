import WorkspaceStorage
import WorkspacedCommands

extension TestHooks {
    /// The shipped seams with every hook the environment asks for: the signal window, the crashing loader, the
    /// test's cgroup hierarchy, the start timeout's period, schema version 5 and the SIGUSR2 hang; each is the
    /// shipped one when its variable is unset.
    static func seams() -> WorkspacedSeams {
        var seams = WorkspacedSeams.shipped
        seams.afterArming = { TestHooks.signalWindow() }
        seams.fileSystem = LoaderCrashingFileSystem.fromEnvironment()
        let memoryLimit = cgroupMemoryLimit()
        seams.memoryLimit = { memoryLimit.bytes() }
        seams.startTimeoutInterval = startTimeoutInterval()
        seams.schema = TestSchemaFive.fromEnvironment() ?? WorkspaceSchema.shipped
        seams.whileRunning = { lifecycle in TestHooks.installedIfAsked(lifecycle: lifecycle) }
        return seams
    }
}
