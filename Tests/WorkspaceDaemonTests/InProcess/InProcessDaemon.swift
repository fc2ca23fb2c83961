import Dispatch
import Foundation
import Logging
import NIOHTTP1
import StateStore
import StateStoreTesting
import Synchronization
import Systemd
import UnixHTTP
import WorkspaceDaemon

/// A whole daemon in memory: the real start-up, stop and reload code with a recording notifier, a manual
/// scheduler (no timed save unless a test advances it), a fault-injecting file system over a temporary state
/// directory, the in-memory transport (or the control socket, ``socketPath``, when asked), the service environment
/// a test gives (none by default; the test process's own is never read), and a ``DaemonLifecycle`` on a queue of
/// its own. No process, no socket unless asked, no sleeping.
final class InProcessDaemon: Sendable {
    let directory: String
    let notifier = RecordingNotifier()
    /// What the daemon sends to: ``notifier``, with the hook of ``afterFirstReady(_:)``.
    private let hooked: ReadyHookNotifier
    let fileSystem = FaultInjectingFileSystem()
    let scheduler = ManualPersistenceScheduler()
    let queue = DispatchQueue(label: "test.lifecycle")
    let exits = ExitRecorder()
    let logs = CapturedLog()
    let lifecycle: DaemonLifecycle
    let daemon: Daemon

    var configPath: String { directory + "/config.json" }
    var statePath: String { directory + "/state/workspace.json" }
    /// The control socket's path, where a daemon made with the `.socket` transport listens.
    var socketPath: String { directory + "/c.sock" }

    init(
        config: String = #"{"legacyStatePath": ""}"#, seed: Data? = nil,
        transport: ControlTransport = .inMemory, preparedMetrics: BackgroundValue<DaemonMetrics>? = nil,
        environment: [String: String] = [:]
    ) async throws {
        directory = FileManager.default.temporaryDirectory.path + "/wsd-lifecycle-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory + "/state", withIntermediateDirectories: true)
        try Data(config.utf8).write(to: URL(fileURLWithPath: directory + "/config.json"))
        if let seed { try seed.write(to: URL(fileURLWithPath: directory + "/state/workspace.json")) }
        let sources = ConfigurationSources(
            configFile: directory + "/config.json", environment: environment,
            overrides: [
                "stateDirectory": .string(directory + "/state"), "controlSocket": .string(directory + "/c.sock"),
            ])
        let configuration = try await ConfigurationLoader.load(sources)
        hooked = ReadyHookNotifier(recorder: notifier)
        let logs = self.logs
        let level = LogLevelControl(configuration.logLevel)
        let logger = Logger(label: "test") { _ in
            LevelControlledLogHandler(CapturedLog.Handler(sink: logs), control: level)
        }
        daemon = Daemon(
            configuration: configuration, sources: sources,
            environment: DaemonEnvironment(
                notifier: hooked, logger: logger, logLevel: level, fileSystem: fileSystem, scheduler: scheduler,
                transport: transport, watchdog: { nil }, preparedMetrics: preparedMetrics))
        let exits = self.exits
        lifecycle = DaemonLifecycle(queue: queue, exitNow: { status in exits.record(status) })
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs `hook` once, on the thread that sends it, right after the first READY=1 is recorded: while the daemon
    /// serves but before ``DaemonLifecycle/run(_:)`` has the running daemon.
    func afterFirstReady(_ hook: @escaping @Sendable () -> Void) {
        hooked.setHook(hook)
    }

    /// Hands `event` to the lifecycle on its queue, as the signal source would, and returns once it was handled.
    func signal(_ event: LifecycleEvent) async {
        await withCheckedContinuation { continuation in
            queue.async { [lifecycle] in
                lifecycle.handle(event)
                continuation.resume()
            }
        }
    }

    /// One request through the running daemon's in-memory transport, as root.
    func request(
        _ running: RunningDaemon, _ method: HTTPMethod, _ uri: String, _ body: String? = nil
    ) async -> HTTPResponse {
        await running.responder.respond(
            method, uri, headers: body == nil ? [:] : ["Content-Type": "application/json"],
            body: Array((body ?? "").utf8), peer: PeerCredentials(pid: 1, uid: 0, gid: 0))
    }

    /// The notify datagrams so far, as text.
    var datagrams: [String] { notifier.datagrams }

    func onDisk() -> [String: Any]? {
        guard let data = FileManager.default.contents(atPath: statePath) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }
}

/// A notifier that records into a ``RecordingNotifier`` and runs a hook once after the first `READY=1`.
final class ReadyHookNotifier: ServiceNotifier {
    let recorder: RecordingNotifier
    private let hook = Mutex<(@Sendable () -> Void)?>(nil)

    init(recorder: RecordingNotifier) {
        self.recorder = recorder
    }

    /// Sets the hook the next `READY=1` runs.
    func setHook(_ hook: @escaping @Sendable () -> Void) {
        self.hook.withLock { $0 = hook }
    }

    func send(_ fields: [NotifyField]) throws(NotifyError) {
        try recorder.send(fields)
        guard fields.contains(.ready) else { return }
        let hook = self.hook.withLock { hook in
            defer { hook = nil }
            return hook
        }
        hook?()
    }
}

/// The statuses the lifecycle asked the process to exit with at once.
final class ExitRecorder: Sendable {
    private let statuses = Mutex<[SharedExitStatus]>([])

    func record(_ status: SharedExitStatus) { statuses.withLock { $0.append(status) } }

    var all: [SharedExitStatus] { statuses.withLock { $0 } }
}
