import Foundation
import StateStoreTesting
import TestSupport
import Testing

@testable import WorkspaceDaemon

#if canImport(Glibc)
import Glibc
#endif

/// Issue 47: what a restart cannot fix never loops. A file of the state the service's user may not read is exit 77
/// (in `RestartPreventExitStatus=`) with its owner, mode and the fix; an invalid configuration is refused by the
/// daemon itself, never by the unit's `ExecStartPre=` (whose status systemd does not hold against a restart).
@Suite("Refusals a restart cannot fix")
struct RestartPreventionTests {
    @Test func aFileTheUserMayNotReadIsDescribedWithItsFix() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("workspace file.json")
        try Data("{}".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        chown(path, 0, 0)
        let problem = try #require(FileAccessProblem.reading(path, as: 65534, gid: 65534))
        #expect(problem.ownerUID == 0 && problem.mode == 0o600)
        #expect(problem.fix == "chown 65534:65534 '\(path)'")
        #expect(problem.description.contains("with mode 0600, which uid 65534"), "\(problem)")
        #expect(FileAccessProblem.reading(path, as: 0, gid: 0) == nil, "root reads anything")
        chmod(path, 0o644)
        #expect(FileAccessProblem.reading(path, as: 65534, gid: 65534) == nil)
        chmod(path, 0o640)
        chown(path, 0, 65534)
        #expect(FileAccessProblem.reading(path, as: 65534, gid: 65534) == nil, "the group may read it")
    }

    @Test(.enabled(if: getuid() == 0, "needs root to run the daemon as another user"))
    func aStateFileTheServiceMayNotReadExits77WithTheFix() async throws {
        let harness = try TestDaemon()
        chmod(harness.root, 0o755)
        chown(harness.stateDirectory, 65534, 65534)
        try harness.writeState(Data(#"{"version":4}"#.utf8))
        chmod(harness.statePath, 0o600)
        let daemon = try harness.start(launcher: [
            "/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--",
        ])
        let status = await daemon.waitForExit()
        #expect(status == 77, "\(daemon.output)")
        #expect(daemon.output.contains("mode 0600, which uid 65534"), "\(daemon.output)")
        #expect(daemon.output.contains("chown 65534:65534 \(harness.statePath)"), "\(daemon.output)")
    }

    /// A FIFO where the state file belongs: opened for reading, it would hold the start until a writer came (and
    /// then load nothing). It is refused at once, exit 65 (in `RestartPreventExitStatus=`), and left in place.
    @Test func aFIFOWhereTheStateFileBelongsIsRefusedAtOnce() async throws {
        let harness = try TestDaemon()
        #expect(mkfifo(harness.statePath, 0o600) == 0)
        let daemon = try harness.start()
        let status = await daemon.waitForExit(timeout: .seconds(20))
        #expect(status == 65, "\(daemon.output)")
        #expect(daemon.output.contains("\(harness.statePath): a FIFO, not a regular file"), "\(daemon.output)")
        var info = stat()
        #expect(lstat(harness.statePath, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the FIFO was moved")
    }

    @Test func stageLegacyLeavesAnInvalidConfigurationToTheDaemon() async throws {
        let harness = try TestDaemon()
        try harness.writeConfig(#"{"backupsKept": 0}"#)
        let stage = try await harness.runTool([
            "stage-legacy", "--config", harness.configPath, "--state-directory", harness.stateDirectory,
        ])
        #expect(stage.status == 0, "\(stage.output)")
        #expect(stage.output.contains("skipped, the configuration is invalid"), "\(stage.output)")
        let daemon = try harness.start()
        let status = await daemon.waitForExit()
        #expect(status == 78, "the daemon refuses it, with the status systemd does not restart on: \(daemon.output)")
        #expect(daemon.output.contains("backupsKept"), "\(daemon.output)")
    }

    @Test(.enabled(if: getuid() == 0, "root's view is what differs from the service's"))
    func checkAsRootReportsWhatTheServicesUserWouldMeet() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("workspace.json")
        try directory.write("workspace.json", try WorkspaceFixtures.data("versions/v4.json"))
        chmod(path, 0o600)
        #expect(OfflineTools.check(statePath: path).status == 0, "a directory of root's: root's view is the service's")
        chown(directory.path, 65534, 65534)
        let refused = OfflineTools.check(statePath: path)
        #expect(refused.status == 77, "\(refused.text)")
        #expect(refused.text.contains("chown 65534:65534 \(path)"), "\(refused.text)")
        chown(path, 65534, 65534)
        #expect(OfflineTools.check(statePath: path).status == 0)
    }
}
