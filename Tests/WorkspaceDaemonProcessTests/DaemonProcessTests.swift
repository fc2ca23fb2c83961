import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("workspaced under a notify socket", .serialized)
struct DaemonProcessTests {
    /// The order of the notifications, not the length of the load (StartTimeoutTests has the long load): a small
    /// file, so that a loaded test machine cannot push READY=1 past the wait.
    @Test func readyComesOnlyAfterTheLoadWithStatusAndTimeoutExtensionFirst() async throws {
        let harness = try TestDaemon()
        try harness.writeState(await WorkspaceFixtures.largeVersion1(projects: 200))
        let process = try harness.start()
        #expect(await harness.becomesReady(), "no READY=1; output: \(process.output)")
        let messages = harness.messages()
        let ready = try #require(messages.firstIndex { $0.split(separator: "\n").contains("READY=1") })
        let loading = try #require(messages.firstIndex { $0.contains("STATUS=loading \(harness.statePath)") })
        #expect(loading < ready)
        #expect(messages[loading].contains("EXTEND_TIMEOUT_USEC="))
        #expect(messages[ready].contains("STATUS=serving 200 projects"))
        #expect(messages[ready].contains("migrated version 1 to 4"))
        process.send(SIGTERM)
        #expect(await process.waitForExit() == 0)
    }

    @Test func aVersion1FileIsMigratedOnDiskWithItsBackupKept() async throws {
        let harness = try TestDaemon()
        try harness.writeConfig(#"{"save": {"debounceMilliseconds": 20}}"#)
        let original = try WorkspaceFixtures.data("versions/v1.json")
        try harness.writeState(original)
        let process = try harness.start()
        #expect(await harness.becomesReady())
        #expect(
            String(decoding: try harness.stateBytes(), as: UTF8.self).contains(#""version":4"#),
            "the migrated state is saved before READY=1")
        let backup = try Data(contentsOf: URL(fileURLWithPath: harness.statePath + ".v1.bak"))
        #expect(backup == original)
        // The version-1 file was read straight into its model (issue 29), and the log says so.
        #expect(process.output.contains("reader=direct"), "\(process.output)")
        let saved = try JSONSerialization.jsonObject(with: harness.stateBytes()) as? [String: Any]
        #expect((saved?["owner"] as? [String: Any])?["alias"] as? String == "Ada")
        process.send(SIGTERM)
        #expect(await process.waitForExit() == 0)
    }

    @Test func sigtermWithUnsavedChangesFlushesThemAndExitsZero() async throws {
        let harness = try TestDaemon()
        try harness.writeState(try WorkspaceFixtures.data("versions/v2.json"))
        let process = try harness.start()
        #expect(await harness.becomesReady())
        // The harness's debounce is a minute: this change is acknowledged, in memory only, until the stop.
        let created = try await curl(
            harness.socketPath, "POST", "/v1/favorites", body: #"{"name":"Unsaved","path":"/unsaved"}"#,
            headers: ["Content-Type: application/json"])
        #expect(created.status == 201, "\(created.body)")
        #expect(!String(decoding: try harness.stateBytes(), as: UTF8.self).contains("/unsaved"))
        process.send(SIGTERM)
        #expect(await process.waitForExit() == 0)
        #expect(String(decoding: try harness.stateBytes(), as: UTF8.self).contains("/unsaved"))
        #expect(harness.messages().contains { $0.contains("STOPPING=1") })
        #expect(process.output.contains("flushed on stop"))
    }

    @Test func sighupReloadsAndABadConfigKeepsTheOldOne() async throws {
        let harness = try TestDaemon()
        let process = try harness.start()
        #expect(await harness.becomesReady())
        try harness.writeConfig(#"{"logLevel": "debug", "save": {"debounceMilliseconds": 10}}"#)
        process.send(SIGHUP)
        #expect(
            await harness.waitForMessage {
                $0.contains("STATUS=serving ") && $0.contains("configuration reloaded at")
                    && $0.contains("(log level debug)")
            })
        let reloading = harness.messages().firstIndex { $0.contains("RELOADING=1") }
        let reloaded = harness.messages().firstIndex { $0.contains("configuration reloaded") }
        #expect(reloading != nil && reloading! < reloaded!)
        try harness.writeConfig(#"{"logLevel": "chatty"}"#)
        process.send(SIGHUP)
        #expect(
            await harness.waitForMessage {
                $0.contains("STATUS=serving ") && $0.contains("configuration rejected at") && $0.contains("logLevel")
            })
        #expect(
            await process.waitForExit(timeout: .milliseconds(200)) == nil, "a bad reload does not stop the daemon")
        #expect(process.output.contains("configuration rejected, keeping the previous one"))
        process.send(SIGTERM)
        #expect(await process.waitForExit() == 0)
    }

    @Test func aStateDirectoryThatCannotBeCreatedExits73WithTheRealError() async throws {
        let harness = try TestDaemon()
        try Data("a file, not a directory".utf8).write(to: URL(fileURLWithPath: harness.root + "/plain"))
        let process = try harness.start(["--state-directory", harness.root + "/plain/state"])
        #expect(await process.waitForExit() == 73)
        #expect(process.output.contains("cannot create the state directory"), "\(process.output)")
        #expect(
            process.output.contains("mkdir") && process.output.contains("Not a directory (errno 20)"),
            "\(process.output)")
        #expect(!process.output.contains("lock "), "not reported as a lock failure: \(process.output)")
    }

    @Test func aBadConfigExits78NamingTheKey() async throws {
        let harness = try TestDaemon()
        try harness.writeConfig(#"{"backupsKept": 0}"#)
        let process = try harness.start()
        #expect(await process.waitForExit() == 78)
        #expect(process.output.contains("backupsKept"))
        try harness.writeConfig("{}")
        let environment = try harness.start(environment: ["WORKSPACED_LOG_LEVEL": "shout"], output: "env.log")
        #expect(await environment.waitForExit() == 78)
        #expect(environment.output.contains("logLevel"))
        // A whole-number flag that is not one: 78 from the loader, not the argument parser's 64.
        let flag = try harness.start(["--backups-kept", "three"], output: "flag.log")
        #expect(await flag.waitForExit() == 78)
        #expect(flag.output.contains("backupsKept"))
    }

    /// `run`'s usual command line skips argument-parser (RunCommandLine); anything else still reaches it: a mistake
    /// is its usage error (64) naming the flag, never a start on a half-read command line, and a command line it
    /// accepts (a flag given twice: the last counts) starts the daemon as before.
    @Test func whatRunCommandLineDeclinesTheArgumentParserReads() async throws {
        let harness = try TestDaemon()
        let unknown = try harness.start(["--backups-kpet", "3"], output: "unknown.log")
        #expect(await unknown.waitForExit() == 64)
        #expect(unknown.output.contains("--backups-kpet"), "\(unknown.output)")
        let missing = try harness.start(["--log-level"], output: "missing.log")
        #expect(await missing.waitForExit() == 64)
        #expect(missing.output.contains("--log-level"), "\(missing.output)")
        #expect(!FileManager.default.fileExists(atPath: harness.stateDirectory + "/workspace.json"), "never started")
        let twice = try await harness.startUntilReadyOrExit(
            ["--state-directory", harness.stateDirectory], output: "twice.log")
        #expect(twice.ready, "exit \(String(describing: twice.exit)): \(twice.process.output)")
        #expect(await harness.stop() == 0)
    }

    /// A key of a newer release (or a typo) must not stop this one, a rollback least of all: the daemon starts and
    /// says so in the journal, STATUS= and /v1/status; `check-config` stays strict.
    @Test func anUnknownConfigKeyIsAWarningNotARefusal() async throws {
        let harness = try TestDaemon()
        try harness.writeConfig(#"{"backupsKept": 3, "stateDirectroy": "/x", "futureFeature": {"on": true}}"#)
        let process = try harness.start()
        #expect(await harness.becomesReady(), "\(process.output)")
        let ready = harness.messages().first { $0.contains("READY=1") } ?? ""
        #expect(ready.contains("ignoring unknown config key(s): futureFeature"), "\(ready)")
        #expect(ready.contains("stateDirectroy (did you mean stateDirectory?)"), "\(ready)")
        #expect(process.output.contains("unknown configuration key stateDirectroy in \(harness.configPath) ignored"))
        let status = try await curl(harness.socketPath, "GET", "/v1/status")
        #expect(status.body.contains("futureFeature"), "\(status.body)")
        process.send(SIGTERM)
        #expect(await process.waitForExit() == 0)
        let strict = try await harness.runTool(["check-config", "--config", harness.configPath])
        #expect(strict.status == 78)
        #expect(strict.output.contains("futureFeature") || strict.output.contains("stateDirectroy"), "\(strict.output)")
        let lenient = try await harness.runTool(["check-config", "--lenient", "--config", harness.configPath])
        #expect(lenient.status == 0, "\(lenient.output)")
        #expect(lenient.output.contains("warning: unknown configuration key futureFeature in"), "\(lenient.output)")
    }

    @Test func legacyStatePathAtTheStateFileExits78NamingTheKeyAndCheckConfigRefusesIt() async throws {
        let harness = try TestDaemon()
        try harness.writeConfig(#"{"legacyStatePath": "\#(harness.stateDirectory)//workspace.json"}"#)
        let process = try harness.start()
        #expect(await process.waitForExit() == 78)
        #expect(process.output.contains("legacyStatePath") && process.output.contains("is the state file"))
        #expect(!FileManager.default.fileExists(atPath: harness.stateDirectory + "/workspace.json"), "never started")
        let check = try RunningProcess(
            TestDaemon.binary,
            ["check-config", "--config", harness.configPath, "--state-directory", harness.stateDirectory],
            environment: ["PATH": "/usr/bin:/bin"], outputPath: harness.root + "/check-config.log")
        #expect(await check.waitForExit() == 78)
        #expect(check.output.contains("legacyStatePath"), "\(check.output)")
    }

    @Test func aSecondInstanceIsRefused() async throws {
        let harness = try TestDaemon()
        let first = try harness.start()
        #expect(await harness.becomesReady())
        let second = try RunningProcess(
            TestDaemon.binary,
            ["run", "--config", harness.configPath, "--state-directory", harness.stateDirectory],
            environment: ["PATH": "/usr/bin:/bin"], outputPath: harness.root + "/second.log")
        #expect(await second.waitForExit() == 73)
        #expect(second.output.contains("in use by another process"))
        #expect(second.output.contains("\(first.pid)"))
        first.send(SIGTERM)
        #expect(await first.waitForExit() == 0)
    }

    @Test func aCorruptFileIsQuarantinedAndTheDaemonStarts() async throws {
        let harness = try TestDaemon()
        let garbage = Data(#"{"projects": [{"id": "#.utf8)
        try harness.writeState(garbage)
        let process = try harness.start()
        #expect(await harness.becomesReady())
        let names = try FileManager.default.contentsOfDirectory(atPath: harness.stateDirectory)
        let quarantined = try #require(names.first { $0.hasPrefix("workspace.json.corrupt-") })
        #expect(try Data(contentsOf: URL(fileURLWithPath: harness.stateDirectory + "/" + quarantined)) == garbage)
        #expect(process.output.contains("state file was corrupt"))
        process.send(SIGTERM)
        #expect(await process.waitForExit() == 0)
    }

    @Test func aFileWithOneBadPaneIsSalvagedAndTheOriginalKept() async throws {
        let harness = try TestDaemon()
        let original = try WorkspaceFixtures.data("salvage/v2-pane-viewmode-string.json")
        try harness.writeState(original)
        let process = try harness.start()
        #expect(await harness.becomesReady())
        let names = try FileManager.default.contentsOfDirectory(atPath: harness.stateDirectory)
        let kept = try #require(names.first { $0.hasPrefix("workspace.json.corrupt-") })
        #expect(try Data(contentsOf: URL(fileURLWithPath: harness.stateDirectory + "/" + kept)) == original)
        #expect(process.output.contains("salvaged: 1 record dropped, 1 field coerced, 0 fields defaulted"))
        #expect(process.output.contains("reader=codable"), "\(process.output)")
        #expect(process.output.contains("dropped projects[0].panes[1] (id 22222222-2222-4222-8222-222222222222)"))
        process.send(SIGTERM)
        #expect(await process.waitForExit() == 0)
        // The salvaged state was saved over the file on the way out; the original stays beside it.
        let saved = String(decoding: try harness.stateBytes(), as: UTF8.self)
        #expect(saved.contains(#""version":4"#) && !saved.contains("/src/runtime") && saved.contains("/src/docs"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: harness.stateDirectory + "/" + kept)) == original)
    }

    @Test func aSalvagedFileIsSavedWithoutWaitingForAChange() async throws {
        let harness = try TestDaemon()
        var text = String(decoding: try WorkspaceFixtures.data("versions/v4.json"), as: UTF8.self)
        text = text.replacingOccurrences(of: #""alias": "margaret""#, with: #""alias": 42"#)
        try harness.writeState(Data(text.utf8))
        try harness.writeConfig(#"{"save": {"debounceMilliseconds": 50, "maximumDelayMilliseconds": 200}}"#)
        let process = try harness.start()
        #expect(await harness.becomesReady())
        // Version 4, no repair: only the salvage makes the file on disk differ from the state served.
        #expect(
            await eventually {
                (try? harness.stateBytes()).map { String(decoding: $0, as: UTF8.self) }?
                    .contains(#""alias":"42""#) == true
            })
        process.send(SIGTERM)
        #expect(await process.waitForExit() == 0)
    }

    @Test func aNewerIncompatibleFileRefusesToStartAndStaysByteIdentical() async throws {
        let harness = try TestDaemon()
        let newer = try WorkspaceFixtures.data("edge/newer-incompatible.json")
        try harness.writeState(newer)
        let process = try harness.start()
        #expect(await process.waitForExit() == 75)
        #expect(try harness.stateBytes() == newer)
        #expect(harness.messages().contains { $0.contains("STATUS=refusing to start") && $0.contains("version") })
        #expect(!harness.messages().contains { $0.contains("READY=1") })
        let names = try FileManager.default.contentsOfDirectory(atPath: harness.stateDirectory)
        #expect(names.sorted() == [".workspace.json.loading", ".workspace.json.lock", "workspace.json"])
        // The crash-loop guard's record stays, its count given back: a refusal is not a crash.
        let record = try Data(contentsOf: URL(fileURLWithPath: harness.stateDirectory + "/.workspace.json.loading"))
        let fields = try #require(try JSONSerialization.jsonObject(with: record) as? [String: Any])
        #expect(fields["attempts"] as? Int == 0, "\(fields)")
    }
}
