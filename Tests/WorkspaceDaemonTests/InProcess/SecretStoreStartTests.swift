import Foundation
import StateStore
import StateStoreTesting
import Synchronization
import TestSupport
import Testing
import WorkspaceAPI
import WorkspaceDaemon
import WorkspaceSecrets

/// The start opens an installed secret store beside the workspace's load, and creates a new one only after the
/// load, so that a start that refuses its state file creates nothing.
@Suite("The secret store at the start, in process")
struct SecretStoreStartTests {
    static let secretsFiles = ["secrets.json.enc", "installation.json", "secrets.key"]

    /// Installs a secret store in `world`'s state directory as an earlier start would have, and closes it.
    static func install(_ world: InProcessDaemon) throws {
        let opening = SecretStore.open(
            at: SecretsLocation(directory: world.directory + "/state"), key: .none,
            options: SecretStoreOptions(release: "0.1.0", scheduler: ManualPersistenceScheduler()))
        let store = try #require(opening.store, "\(String(describing: opening.unavailable))")
        try store.close()
        opening.releaseLock()
    }

    static func secretsState(_ world: InProcessDaemon, _ running: RunningDaemon) async throws -> String? {
        let response = await world.request(running, .GET, "/v1/status")
        return try APICoding.decoder.decode(StatusResponse.self, from: Data(response.body)).secrets?.state
    }

    static func isWorkspaceLock(_ operation: FaultInjectingFileSystem.Operation, _ path: String) -> Bool {
        operation == .lock && path.hasSuffix("/.workspace.json.lock")
    }

    @Test func anInstalledStoreOpensWhileTheWorkspaceLoads() async throws {
        let world = try await InProcessDaemon(seed: try WorkspaceFixtures.data("versions/v4.json"))
        try Self.install(world)
        // The load waits at its lock until the store's lock was taken: only an opening that runs beside the load
        // can take it (one after the load would find the load still waiting, and the wait gives up after 10 s).
        let openedDuringTheLoad = Mutex<Bool?>(nil)
        let fileSystem = world.fileSystem
        fileSystem.setBeforeCall { operation, path in
            guard Self.isWorkspaceLock(operation, path) else { return }
            // A blocking wait on purpose: the hook runs on the daemon's loading thread, which it holds at the
            // workspace's lock until the secret store's opening, begun beside the load, shows.
            let deadline = ContinuousClock.now + .seconds(10)
            var seen = false
            while !seen, ContinuousClock.now < deadline {
                seen = fileSystem.calls.contains { call in
                    call.operation == .lock && call.path.hasSuffix("/.secrets.json.enc.lock")
                }
                if !seen { usleep(1_000) }
            }
            openedDuringTheLoad.withLock { $0 = seen }
        }
        let running = try await world.daemon.start()
        fileSystem.setBeforeCall(nil)
        #expect(openedDuringTheLoad.withLock { $0 } == true)
        #expect(try await Self.secretsState(world, running) == "enabled")
        #expect(running.stop(signal: SIGTERM) == .success)
    }

    @Test func aFirstStartCreatesTheStoreAfterTheLoad() async throws {
        let world = try await InProcessDaemon(seed: try WorkspaceFixtures.data("versions/v4.json"))
        let touchedBeforeTheLoad = Mutex<[String]?>(nil)
        let fileSystem = world.fileSystem
        fileSystem.setBeforeCall { operation, path in
            guard Self.isWorkspaceLock(operation, path) else { return }
            // Time for an opening begun beside the load (which a first start must not begin) to show.
            usleep(20_000)
            let touched = fileSystem.calls.filter { call in
                call.operation != .attributes && Self.secretsFiles.contains { call.path.hasSuffix("/" + $0) }
            }
            touchedBeforeTheLoad.withLock { $0 = touched.map { "\($0.operation) \($0.path)" } }
        }
        let running = try await world.daemon.start()
        fileSystem.setBeforeCall(nil)
        #expect(touchedBeforeTheLoad.withLock { $0 } == [])
        #expect(try await Self.secretsState(world, running) == "enabled")
        for name in Self.secretsFiles {
            #expect(FileManager.default.fileExists(atPath: world.directory + "/state/" + name), "\(name)")
        }
        #expect(running.stop(signal: SIGTERM) == .success)
    }

    /// The key credential comes from the service environment the daemon was given (`main`'s snapshot), never
    /// from the process's live `environ`, which another thread could be changing while the opening reads it.
    @Test func theKeyCredentialIsReadFromTheEnvironmentTheDaemonWasGiven() async throws {
        let credentials = FileManager.default.temporaryDirectory.path + "/wsd-credentials-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: credentials, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: credentials) }
        let key = SecretsKey.generate()
        try key.fileContents.write(to: URL(fileURLWithPath: credentials + "/secrets-key"))
        #expect(getenv("CREDENTIALS_DIRECTORY") == nil, "the test process passes no credentials itself")
        let world = try await InProcessDaemon(
            seed: try WorkspaceFixtures.data("versions/v4.json"), environment: ["CREDENTIALS_DIRECTORY": credentials])
        let running = try await world.daemon.start()
        let response = await world.request(running, .GET, "/v1/status")
        let secrets = try APICoding.decoder.decode(StatusResponse.self, from: Data(response.body)).secrets
        #expect(secrets?.state == "enabled")
        #expect(secrets?.keySource == "credential")
        #expect(secrets?.keyId == key.id)
        #expect(!FileManager.default.fileExists(atPath: world.directory + "/state/secrets.key"))
        #expect(running.stop(signal: SIGTERM) == .success)
    }

    @Test func aFirstStartThatRefusesItsStateFileCreatesNoStore() async throws {
        let world = try await InProcessDaemon(
            config: #"{"legacyStatePath": "", "corruptFilePolicy": "refuse"}"#, seed: Data("{not json".utf8))
        await #expect(throws: DaemonStartError.self) { _ = try await world.daemon.start() }
        let names = try FileManager.default.contentsOfDirectory(atPath: world.directory + "/state")
        #expect(!names.contains { name in Self.secretsFiles.contains(name) }, "\(names)")
    }

    @Test func aStartThatRefusesLeavesAnInstalledStoreAsItWasAndUnlocked() async throws {
        let world = try await InProcessDaemon(
            config: #"{"legacyStatePath": "", "corruptFilePolicy": "refuse"}"#, seed: Data("{not json".utf8))
        try Self.install(world)
        let paths = Self.secretsFiles.map { world.directory + "/state/" + $0 }
        let before = paths.map { FileManager.default.contents(atPath: $0) }
        await #expect(throws: DaemonStartError.self) { _ = try await world.daemon.start() }
        #expect(paths.map { FileManager.default.contents(atPath: $0) } == before)
        // The opening begun beside the load was closed and its lock released: the store opens again here.
        let again = SecretStore.open(
            at: SecretsLocation(directory: world.directory + "/state"), key: .none,
            options: SecretStoreOptions(release: "0.1.0", scheduler: ManualPersistenceScheduler()))
        #expect(again.isEnabled, "\(String(describing: again.unavailable))")
        try again.store?.close()
        again.releaseLock()
    }
}
