import Foundation
import NIOHTTP1
import StateStoreTesting
import Synchronization
import TestSupport
import Testing
import UnixHTTP
import WorkspaceDaemon

/// The daemon's start and stop order and its events, in process: READY after the load and the control API,
/// STOPPING before the flush, changes refused once stopping began, the flush, the exit status, reload, and
/// events handled one at a time in order.
@Suite("Daemon lifecycle, in process")
struct LifecycleTests {
    @Test func readyIsSentOnlyAfterTheLoadAndOnceTheControlAPIServes() async throws {
        let world = try await InProcessDaemon(seed: try WorkspaceFixtures.data("versions/v2.json"))
        let seenWhenServing = Mutex<[String]?>(nil)
        let running = try await world.daemon.start(serving: { [notifier = world.notifier] in
            seenWhenServing.withLock { $0 = notifier.datagrams }
        })
        let datagrams = world.datagrams
        let loading = try #require(datagrams.firstIndex { $0.contains("STATUS=loading \(world.statePath)") })
        let ready = try #require(datagrams.firstIndex { $0.split(separator: "\n").contains("READY=1") })
        #expect(loading < ready)
        #expect(datagrams[ready].contains("STATUS=serving 1 project, 1 favorite; migrated version 2 to 4"))
        let beforeServing = try #require(seenWhenServing.withLock { $0 })
        #expect(!beforeServing.contains { $0.contains("READY=1") }, "READY=1 came before the API could serve")
        #expect(beforeServing.contains { $0.contains("STATUS=loading") }, "the load came before serving")
        let status = await world.request(running, .GET, "/v1/status")
        #expect(status.status == .ok)
        #expect(running.stop(signal: SIGTERM) == .success)
    }

    @Test func stopSendsStoppingThenFlushesThenRefusesChangesAndExitsZero() async throws {
        let world = try await InProcessDaemon()
        let run = Task { await world.lifecycle.run(world.daemon) }
        let running = try #require(await world.lifecycle.whenRunning())
        let created = await world.request(running, .POST, "/v1/favorites", #"{"name": "A", "path": "/a"}"#)
        #expect(created.status == .created)
        #expect(world.onDisk() == nil, "a plain change waits for the debounce, which the manual clock holds")
        let stoppingAtFirstWrite = Mutex<Bool?>(nil)
        world.fileSystem.setBeforeCall { [notifier = world.notifier] operation, _ in
            guard operation == .create else { return }
            stoppingAtFirstWrite.withLock { seen in
                if seen == nil { seen = notifier.datagrams.contains { $0.contains("STOPPING=1") } }
            }
        }
        await world.signal(.stop(signal: SIGTERM))
        #expect(stoppingAtFirstWrite.withLock { $0 } == true, "STOPPING=1 is sent before the flush writes")
        #expect((world.onDisk()?["favorites"] as? [Any])?.count == 1, "the flush wrote the accepted change")
        let refused = await world.request(running, .POST, "/v1/favorites", #"{"name": "B", "path": "/b"}"#)
        #expect(refused.status == .serviceUnavailable)
        #expect((await world.request(running, .GET, "/v1/favorites")).status == .ok, "reads are still served")
        // A second TERM during (here: after) the flush changes nothing.
        let stoppingCount = world.datagrams.filter { $0.contains("STOPPING=1") }.count
        await world.signal(.stop(signal: SIGTERM))
        #expect(world.datagrams.filter { $0.contains("STOPPING=1") }.count == stoppingCount)
        #expect(await run.value == .success)
        #expect(await world.lifecycle.stopped() == .success)
        #expect(world.exits.all.isEmpty, "a stop after start flushes; it never exits at once")
        world.fileSystem.setBeforeCall(nil)
    }

    @Test func aFlushThatFailsExits74AndLeavesTheOldFile() async throws {
        let original = try WorkspaceFixtures.data("versions/v4.json")
        let world = try await InProcessDaemon(seed: original)
        let run = Task { await world.lifecycle.run(world.daemon) }
        let running = try #require(await world.lifecycle.whenRunning())
        #expect(
            (await world.request(running, .POST, "/v1/favorites", #"{"name": "A", "path": "/a"}"#)).status == .created)
        world.fileSystem.inject(.fsync, errno: EIO, repeating: true)
        await world.signal(.stop(signal: SIGTERM))
        #expect(await run.value == .ioError)
        #expect(FileManager.default.contents(atPath: world.statePath) == original)
        #expect(world.logs.all.contains { $0.message.hasPrefix("flush on stop failed") })
    }

    @Test func aStopWhileTheStateLoadsExitsAtOnceWithZero() async throws {
        let world = try await InProcessDaemon()
        await world.signal(.stop(signal: SIGTERM))
        #expect(world.exits.all == [.success], "nothing was accepted yet: exit 0 at once")
        #expect(await world.lifecycle.stopped() == .success)
    }

    @Test func reloadAppliesANewConfigurationAndABadOneKeepsTheOld() async throws {
        let world = try await InProcessDaemon()
        let run = Task { await world.lifecycle.run(world.daemon) }
        _ = try #require(await world.lifecycle.whenRunning())
        try Data(#"{"legacyStatePath": "", "logLevel": "debug", "save": {"debounceMilliseconds": 10}}"#.utf8)
            .write(to: URL(fileURLWithPath: world.configPath))
        await world.signal(.reload)
        #expect(world.daemon.configuration.logLevel == .debug)
        #expect(world.daemon.configuration.saveDebounce == .milliseconds(10))
        let datagrams = world.datagrams
        let reloading = try #require(datagrams.lastIndex { $0.contains("RELOADING=1") })
        let reloaded = try #require(
            datagrams.lastIndex { $0.contains("STATUS=serving ") && $0.contains("configuration reloaded at") })
        #expect(reloading < reloaded && datagrams[reloaded].contains("READY=1"))
        try Data(#"{"logLevel": "chatty"}"#.utf8).write(to: URL(fileURLWithPath: world.configPath))
        await world.signal(.reload)
        #expect(
            world.datagrams.last.map { $0.contains("STATUS=serving ") && $0.contains("configuration rejected at") }
                == true, "the load summary stays in STATUS after a rejected reload")
        #expect(world.daemon.configuration.logLevel == .debug, "a bad file keeps the running configuration")
        await world.signal(.stop(signal: SIGTERM))
        #expect(await run.value == .success)
    }

    /// A reload between READY=1 and the lifecycle's handover of the running daemon (`systemctl reload` right
    /// after the start, or a SIGHUP on a loaded machine) is held and applied once the lifecycle has it, as a stop
    /// is, not dropped.
    @Test func aReloadRightAfterReadyIsHeldNotLost() async throws {
        let world = try await InProcessDaemon()
        try Data(#"{"legacyStatePath": "", "logLevel": "debug"}"#.utf8)
            .write(to: URL(fileURLWithPath: world.configPath))
        world.afterFirstReady { [queue = world.queue, lifecycle = world.lifecycle] in
            queue.sync { lifecycle.handle(.reload) }
        }
        let run = Task { await world.lifecycle.run(world.daemon) }
        _ = try #require(await world.lifecycle.whenRunning())
        #expect(await eventually { world.datagrams.contains { $0.contains("configuration reloaded at") } })
        #expect(world.daemon.configuration.logLevel == .debug)
        await world.signal(.stop(signal: SIGTERM))
        #expect(await run.value == .success)
    }

    @Test func eventsAreHandledOneAtATimeInOrderSoAReloadNeverRacesAStop() async throws {
        let world = try await InProcessDaemon()
        let run = Task { await world.lifecycle.run(world.daemon) }
        _ = try #require(await world.lifecycle.whenRunning())
        let done = Mutex(0)
        await withCheckedContinuation { continuation in
            // Both queued back to back, as two signals arriving together would be.
            world.queue.async { [lifecycle = world.lifecycle] in
                lifecycle.handle(.reload)
                done.withLock { $0 += 1 }
            }
            world.queue.async { [lifecycle = world.lifecycle] in
                lifecycle.handle(.stop(signal: SIGTERM))
                lifecycle.handle(.reload)
                done.withLock { $0 += 1 }
                continuation.resume()
            }
        }
        let datagrams = world.datagrams
        let reloaded = try #require(
            datagrams.firstIndex { $0.contains("STATUS=serving ") && $0.contains("configuration reloaded at") })
        let stopping = try #require(datagrams.firstIndex { $0.contains("STOPPING=1") })
        #expect(reloaded < stopping, "the reload finished before the stop began")
        #expect(!datagrams[stopping...].contains { $0.contains("RELOADING=1") }, "no reload after the stop")
        #expect(done.withLock { $0 } == 2)
        #expect(await run.value == .success)
    }
}
