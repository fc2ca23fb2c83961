import Foundation
import NIOHTTP1
import StateStoreTesting
import TestSupport
import Testing
import WorkspaceAPI
import WorkspaceDaemon

/// `/v1/status` tells the last load's story (migration, backup, quarantine, salvage, counts, time), and the
/// STATUS line keeps the load summary through reloads and shows a save failure over them.
@Suite("Status tells the load story, in process")
struct StatusLoadStoryTests {
    static func status(_ world: InProcessDaemon, _ running: RunningDaemon) async throws -> StatusResponse {
        let response = await world.request(running, .GET, "/v1/status")
        #expect(response.status == .ok)
        return try APICoding.decoder.decode(StatusResponse.self, from: Data(response.body))
    }

    @Test func aMigratedLoadNamesItsStepsAndTheBackupWrittenBeforeReady() async throws {
        let world = try await InProcessDaemon(seed: try WorkspaceFixtures.data("versions/v1.json"))
        let run = Task { await world.lifecycle.run(world.daemon) }
        let running = try #require(await world.lifecycle.whenRunning())
        let load = try #require(try await Self.status(world, running).load)
        #expect(load.source == "file")
        #expect(load.storedVersion == 1 && load.currentVersion == 4)
        #expect(load.migratedFrom == 1 && load.migratedTo == 4)
        #expect(load.steps == ["1->2", "2->3", "3->4"])
        #expect(load.summary.contains("migrated version 1 to 4"), "\(load.summary)")
        #expect(load.bytes > 0 && load.loadMilliseconds >= 0)
        #expect(abs(load.loadedAt.timeIntervalSinceNow) < 60)
        #expect(load.quarantinePath == nil && load.salvageOriginalPath == nil && load.importedFrom == nil)
        // The migrated state was saved before READY=1, so its backup is already there.
        let backup = try #require(load.backupPath)
        #expect(backup == world.statePath + ".v1.bak")
        #expect(
            FileManager.default.contents(atPath: backup) == (try WorkspaceFixtures.data("versions/v1.json")),
            "the backup holds the original bytes")
        // One migrated notice (operators count them), and the new lineage under an id of its own.
        let migrated = world.logs.entries(.migrated).filter { $0.level == .notice }
        #expect(migrated.count == 1, "\(migrated.map(\.message))")
        let lineage = world.logs.entries(.lineageStarted)
        #expect(lineage.count == 1 && lineage.first?.metadata["lineage_break"] == "not-stored", "\(lineage)")
        await world.signal(.stop(signal: SIGTERM))
        #expect(await run.value == .success)
    }

    @Test func aSalvagedLoadNamesTheOriginalAndCountsTheChanges() async throws {
        let world = try await InProcessDaemon(
            seed: try WorkspaceFixtures.data("salvage/v2-pane-viewmode-string.json"))
        let run = Task { await world.lifecycle.run(world.daemon) }
        let running = try #require(await world.lifecycle.whenRunning())
        let load = try #require(try await Self.status(world, running).load)
        #expect(load.source == "salvaged")
        let original = try #require(load.salvageOriginalPath)
        #expect(FileManager.default.fileExists(atPath: original))
        #expect(load.salvageChanges == 2, "one pane dropped, one field coerced")
        await world.signal(.stop(signal: SIGTERM))
        #expect(await run.value == .success)
    }

    @Test func aQuarantinedLoadNamesWhereTheFileWent() async throws {
        let world = try await InProcessDaemon(
            config: #"{"legacyStatePath": "", "corruptFilePolicy": "quarantine"}"#, seed: Data("{not json".utf8))
        let run = Task { await world.lifecycle.run(world.daemon) }
        let running = try #require(await world.lifecycle.whenRunning())
        let load = try #require(try await Self.status(world, running).load)
        #expect(load.source == "quarantined")
        let moved = try #require(load.quarantinePath)
        #expect(FileManager.default.contents(atPath: moved) == Data("{not json".utf8))
        await world.signal(.stop(signal: SIGTERM))
        #expect(await run.value == .success)
    }

    @Test func aReloadKeepsTheLoadSummaryAndNeverHidesAFailingSave() async throws {
        let world = try await InProcessDaemon(seed: try WorkspaceFixtures.data("versions/v3.json"))
        let run = Task { await world.lifecycle.run(world.daemon) }
        let running = try #require(await world.lifecycle.whenRunning())
        let readyLine = try #require(world.datagrams.last { $0.contains("READY=1") })
        let ready = try #require(readyLine.split(separator: "\n").first { $0.hasPrefix("STATUS=") })
        #expect(ready.contains("migrated version 3 to 4"), "\(ready)")

        await world.signal(.reload)
        let reloaded = try #require(world.datagrams.last)
        #expect(reloaded.contains(ready + "; configuration reloaded at "), "\(reloaded)")

        world.fileSystem.inject(.create, errno: ENOSPC, repeating: true)
        // The migration was saved before READY=1: a change (one the STATUS line's counts do not show) gives the
        // next save something to write.
        let change = await world.request(running, .PATCH, "/v1/owner", #"{"alias":"changed"}"#)
        #expect(change.status == .ok)
        #expect(throws: (any Error).self) { try running.state.flushSynchronously() }
        let failing = try #require(world.datagrams.last)
        #expect(failing.hasPrefix("STATUS=saving FAILED since "), "\(failing)")
        var status = try await Self.status(world, running)
        #expect(status.savesFailingSince != nil && status.lastError != nil)
        #expect(status.load?.summary.contains("migrated version 3 to 4") == true)

        await world.signal(.reload)
        let whileFailing = try #require(world.datagrams.last { $0.contains("READY=1") })
        #expect(
            whileFailing.contains("STATUS=saving FAILED since "), "a reload keeps the failing line: \(whileFailing)")

        world.fileSystem.clearFaults()
        try running.state.flushSynchronously()
        let recovered = try #require(world.datagrams.last)
        #expect(recovered.hasPrefix(ready + "; configuration reloaded at "), "back to the reload's line: \(recovered)")
        status = try await Self.status(world, running)
        #expect(status.savesFailingSince == nil && status.lastError == nil)
        await world.signal(.stop(signal: SIGTERM))
        #expect(await run.value == .success)
    }
}
