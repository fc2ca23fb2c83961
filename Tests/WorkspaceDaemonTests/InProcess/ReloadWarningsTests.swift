import Foundation
import Testing
import WorkspaceDaemon

/// A reload recomputes the unknown-key warnings from the new file: a fixed typo's warning goes away and a new
/// one appears, in `/v1/status` (what `workspacectl status` shows), the STATUS line and the journal alike.
@Suite("Configuration warnings across a reload, in process")
struct ReloadWarningsTests {
    @Test func aReloadReplacesTheWarningsOfTheStart() async throws {
        let world = try await InProcessDaemon(config: #"{"legacyStatePath": "", "logLevle": "debug"}"#)
        let run = Task { await world.lifecycle.run(world.daemon) }
        let running = try #require(await world.lifecycle.whenRunning())
        let atStart = try await StatusLoadStoryTests.status(world, running).configurationWarnings ?? []
        #expect(atStart.count == 1 && atStart[0].contains("logLevle"), "\(atStart)")

        world.logs.clear()
        try Data(#"{"legacyStatePath": "", "logLevel": "debug", "saveDebounce": 10}"#.utf8)
            .write(to: URL(fileURLWithPath: world.configPath))
        await world.signal(.reload)
        let afterReload = try await StatusLoadStoryTests.status(world, running).configurationWarnings ?? []
        #expect(afterReload.count == 1, "the fixed typo's warning is gone: \(afterReload)")
        #expect(afterReload.first?.contains("saveDebounce") == true, "the new key's warning is there: \(afterReload)")
        let status = try #require(world.datagrams.last { $0.contains("configuration reloaded at") })
        #expect(status.contains("ignoring unknown config key(s): saveDebounce"), "\(status)")
        #expect(!status.contains("logLevle"), "\(status)")
        let logged = world.logs.all.filter { $0.metadata["config_key"] != nil }.map(\.message)
        #expect(logged.count == 1 && logged[0].contains("saveDebounce"), "\(logged)")

        try Data(#"{"legacyStatePath": "", "logLevel": "debug"}"#.utf8).write(
            to: URL(fileURLWithPath: world.configPath))
        await world.signal(.reload)
        #expect(try await StatusLoadStoryTests.status(world, running).configurationWarnings ?? [] == [])
        await world.signal(.stop(signal: SIGTERM))
        #expect(await run.value == .success)
    }
}
