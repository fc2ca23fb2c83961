import Dispatch
import Foundation
import NIOHTTP1
import StateStoreTesting
import Synchronization
import TestSupport
import Testing

/// `?durable=true` and `Workspaced-Durable`: the answer comes only once the change is on disk, and a save that
/// fails fails the request instead of acknowledging it.
@Suite("Durable acknowledgements, in process")
struct DurableAcknowledgementTests {
    /// Holds the save of the state file at its rename until released, and says when it got there.
    final class RenameGate: Sendable {
        /// Whether the save got to the rename.
        private let reached = Mutex(false)
        /// Signalled by the test to let the held save go on.
        let release = DispatchSemaphore(value: 0)

        func install(on fileSystem: FaultInjectingFileSystem, path: String) {
            fileSystem.setBeforeCall { [self] operation, target in
                guard operation == .rename, target == path else { return }
                reached.withLock { $0 = true }
                // The save holds here until the test lets it go: the thread is the state's save queue, not one of
                // the cooperative pool.
                release.wait()
            }
        }

        /// Waits, without holding a thread, for the save to reach the rename; whether it did in time.
        func waitUntilReached() async -> Bool {
            await eventually { reached.withLock { $0 } }
        }
    }

    @Test(arguments: ["?durable=true", "header"])
    func theAnswerWaitsUntilTheChangeIsDurable(form: String) async throws {
        let api = try InProcessAPI()
        let gate = RenameGate()
        gate.install(on: api.fileSystem, path: api.file.path)
        let answered = Mutex(false)
        let uri = "/v1/favorites" + (form == "header" ? "" : form)
        let headers = form == "header" ? [("Workspaced-Durable", "true")] : []
        let request = Task {
            let response = await api.send(.POST, uri, #"{"name": "A", "path": "/a"}"#, headers: headers)
            answered.withLock { $0 = true }
            return response
        }
        #expect(await gate.waitUntilReached(), "the save reached the rename")
        let answeredEarly = answered.withLock { $0 }
        #expect(!answeredEarly, "no answer while the save is not durable")
        #expect(api.onDisk() == nil, "the rename has not happened")
        gate.release.signal()
        let response = await request.value
        #expect(response.status == .created)
        #expect(response.json["durableRevision"] as? Int == 1)
        #expect((api.onDisk()?["favorites"] as? [Any])?.count == 1, "on disk when answered")
        api.fileSystem.setBeforeCall(nil)
    }

    @Test(arguments: [FaultInjectingFileSystem.Operation.fsync, .rename, .fsyncDirectory, .create])
    func aFailingSaveFailsTheDurableRequest(operation: FaultInjectingFileSystem.Operation) async throws {
        let api = try InProcessAPI()
        api.fileSystem.inject(operation, errno: EIO)
        let response = await api.send(.POST, "/v1/favorites?durable=true", #"{"name": "A", "path": "/a"}"#)
        #expect(response.status == .serviceUnavailable && response.errorCode == "not_durable")
        #expect(api.state.status.durableRevision == 0, "not acknowledged as durable")
        #expect(api.state.status.revision == 1, "accepted in memory, still dirty")
        // The next save, once the fault is gone, makes it durable.
        let flushed = await api.send(.POST, "/v1/flush")
        #expect(flushed.status == .ok && flushed.json["durableRevision"] as? Int == 1)
    }

    @Test func changesAreRefusedOnceTheStateIsClosed() async throws {
        let api = try InProcessAPI()
        #expect(await api.send(.POST, "/v1/favorites", #"{"name": "A", "path": "/a"}"#).status == .created)
        try api.state.close()
        let refused = await api.send(.POST, "/v1/favorites", #"{"name": "B", "path": "/b"}"#)
        #expect(refused.status == .serviceUnavailable && refused.errorCode == "unavailable")
        #expect((api.onDisk()?["favorites"] as? [Any])?.count == 1, "closing flushed what was accepted")
        #expect(await api.send(.GET, "/v1/favorites").array.count == 1, "reads are still served")
    }
}
