import CSignalLatch
import Dispatch
import Glibc
import Systemd
import WorkspaceDaemon

/// Test-only fault injection, in `workspaced-testing` only and installed only when the environment has
/// `WSD_TEST_HOOKS=1` (the system tests' watchdog scenario runs it so; not `WORKSPACED_…`, which the configuration
/// would refuse as an unknown key); the shipped `workspaced` has none of it.
///
/// SIGUSR2 hangs the state owner: a background read that never returns holds the owner's lock, so the
/// watchdog's health check never answers, the daemon stops pinging and systemd restarts it with
/// `Result=watchdog`.
final class TestHooks: Sendable {
    /// Kept only to keep the source alive; never changed after `init`.
    private nonisolated(unsafe) let source: any DispatchSourceSignal

    /// The hooks when `WSD_TEST_HOOKS=1` is set, else `nil` (SIGUSR2 keeps its default action).
    static func installedIfAsked(lifecycle: DaemonLifecycle) -> TestHooks? {
        guard getenv("WSD_TEST_HOOKS").map({ String(cString: $0) }) == "1" else { return nil }
        return TestHooks(lifecycle: lifecycle)
    }

    /// Holds the start-up between arming the signal latch and creating the signal sources, after writing `signal
    /// window open` to standard error, until the latch has caught SIGTERM, SIGINT or SIGHUP or
    /// `WSD_TEST_SIGNAL_WINDOW_MS` milliseconds have passed; nothing without the variable. A test sends its signal
    /// into that window (SignalHandOverTests) and, however loaded the machine, the signal lands in it.
    static func signalWindow() {
        guard let text = getenv("WSD_TEST_SIGNAL_WINDOW_MS").map({ String(cString: $0) }),
            let milliseconds = Int(text)
        else { return }
        let line = Array("signal window open\n".utf8)
        _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        let deadline = DispatchTime.now() + .milliseconds(milliseconds)
        let caught = { [SIGTERM, SIGINT, SIGHUP].contains { wsd_signal_latch_holds($0) != 0 } }
        while DispatchTime.now() < deadline, !caught() {
            usleep(1_000)
        }
    }

    /// Where the memory limit is read: the real cgroup, or with `WSD_TEST_HOOKS=1` and `WSD_TEST_CGROUP_ROOT=DIR`,
    /// a hierarchy a test wrote (`DIR/cgroup` standing for `/proc/self/cgroup`, `DIR/fs` for `/sys/fs/cgroup`).
    static func cgroupMemoryLimit() -> CgroupMemoryLimit {
        guard getenv("WSD_TEST_HOOKS").map({ String(cString: $0) }) == "1",
            let root = getenv("WSD_TEST_CGROUP_ROOT").map({ String(cString: $0) })
        else { return CgroupMemoryLimit() }
        return CgroupMemoryLimit(procSelfCgroup: root + "/cgroup", cgroupRoot: root + "/fs")
    }

    /// How often the start timeout is extended: every second, or with `WSD_TEST_HOOKS=1` and
    /// `WSD_TEST_START_EXTENSION_MS=N`, every N milliseconds (StartTimeoutTests: a replay that outlasts one period
    /// on a fast machine as on a loaded one).
    static func startTimeoutInterval() -> Duration {
        guard getenv("WSD_TEST_HOOKS").map({ String(cString: $0) }) == "1",
            let text = getenv("WSD_TEST_START_EXTENSION_MS").map({ String(cString: $0) }),
            let milliseconds = Int(text), milliseconds > 0
        else { return .seconds(1) }
        return .milliseconds(milliseconds)
    }

    /// Installs the SIGUSR2 source for the daemon `lifecycle` runs.
    init(lifecycle: DaemonLifecycle) {
        signal(SIGUSR2, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGUSR2, queue: DispatchQueue(label: "workspaced.test-hooks"))
        source.setEventHandler {
            DispatchQueue.global().async {
                lifecycle.running?.state.read { _ in
                    while true { sleep(3_600) }
                }
            }
        }
        source.resume()
    }
}
