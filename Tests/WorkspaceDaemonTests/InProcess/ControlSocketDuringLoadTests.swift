import Dispatch
import Foundation
import StateStoreTesting
import Synchronization
import TestSupport
import Testing
import UnixHTTP
import WorkspaceDaemon

/// The control socket is bound while the state loads: a client that connects then waits for the load and is
/// answered once the API serves, and a stop during the load leaves no socket file. The load is held at the state
/// file's lock (the fault-injecting file system's hook), so nothing here depends on how long a load takes; the
/// held start runs on a thread of its own (``ThreadTaskExecutor``), never on one of the cooperative pool.
@Suite("The control socket during the load, in process")
struct ControlSocketDuringLoadTests {
    /// Holds the load at the state lock until ``release()``; ``reached`` once the load is there.
    private final class LoadGate: Sendable {
        let gate = DispatchSemaphore(value: 0)
        let arrived = DispatchSemaphore(value: 0)

        func install(on fileSystem: FaultInjectingFileSystem) {
            fileSystem.setBeforeCall { [gate, arrived] operation, path in
                guard operation == .lock, path.hasSuffix("/.workspace.json.lock") else { return }
                arrived.signal()
                gate.wait()
            }
        }

        /// Waits, off the cooperative pool, until the load reached the lock.
        func reached() async {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async { [arrived] in
                    arrived.wait()
                    continuation.resume()
                }
            }
        }

        func release() { gate.signal() }
    }

    private func isSocket(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFSOCK
    }

    /// Waits until the socket file exists (the bind runs in a task of its own beside the held load).
    private func waitForSocket(_ path: String) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !isSocket(path) {
            guard ContinuousClock.now < deadline else {
                throw TestSupportError(description: "no socket at \(path) while loading")
            }
            // Polling a file the code under test creates; not a wait for time to pass.
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Starts `world`'s daemon on a thread of its own with its load held at the state lock, and returns once the
    /// load is held and the control socket exists.
    private func startHeldAtTheLoad(
        _ world: InProcessDaemon
    ) async throws -> (load: LoadGate, run: Task<SharedExitStatus, Never>) {
        let load = LoadGate()
        load.install(on: world.fileSystem)
        let run = Task(executorPreference: ThreadTaskExecutor(name: "held load")) {
            await world.lifecycle.run(world.daemon)
        }
        await load.reached()
        try await waitForSocket(world.socketPath)
        return (load, run)
    }

    /// Whether the socket file goes away within 30 s (polled).
    private func disappears(_ path: String) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while isSocket(path) {
            guard ContinuousClock.now < deadline else { return false }
            // Polling a file the code under test removes; not a wait for time to pass.
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    @Test func aClientThatConnectsWhileTheStateLoadsIsAnsweredOnceTheAPIServes() async throws {
        let world = try await InProcessDaemon(
            seed: try WorkspaceFixtures.data("versions/v4.json"), transport: .socket)
        let (load, run) = try await startHeldAtTheLoad(world)
        let released = Atomic<Bool>(false)
        let answer = Task {
            let response = try await UnixHTTPClient(socketPath: world.socketPath).send(method: .GET, path: "/v1/status")
            return (response, released.load(ordering: .sequentiallyConsistent))
        }
        #expect(!world.datagrams.contains { $0.contains("READY=1") })
        released.store(true, ordering: .sequentiallyConsistent)
        load.release()
        let (response, afterRelease) = try await answer.value
        #expect(response.status == .ok, "\(String(decoding: response.body, as: UTF8.self))")
        #expect(afterRelease, "answered before the load was released")
        #expect(world.datagrams.contains { $0.split(separator: "\n").contains("READY=1") })
        world.fileSystem.setBeforeCall(nil)
        await world.signal(.stop(signal: SIGTERM))
        #expect(await run.value == .success)
        #expect(!isSocket(world.socketPath), "the socket file is removed at the stop")
    }

    @Test func aStopWhileTheStateLoadsRemovesTheSocketFile() async throws {
        let world = try await InProcessDaemon(transport: .socket)
        let (load, run) = try await startHeldAtTheLoad(world)
        await world.signal(.stop(signal: SIGTERM))
        #expect(world.exits.all == [.success], "nothing was accepted yet: exit 0 at once")
        // At once, or as soon as a bind under way completes.
        #expect(await disappears(world.socketPath), "a stop while loading left the socket file")
        // The process would have exited; here the start goes on and the stop already handled ends the run.
        world.fileSystem.setBeforeCall(nil)
        load.release()
        #expect(await run.value == .success)
    }
}
