#if WORKSPACED_TEST_HOOKS
import Dispatch
import Glibc
import WorkspaceDaemon

/// Test-only fault injection, compiled only with `-Xswiftc -DWORKSPACED_TEST_HOOKS` (the system tests' watchdog
/// build, `Tests/System`); a release build has none of it.
///
/// SIGUSR2 hangs the state owner: a background read that never returns holds the owner's lock, so the
/// watchdog's health check never answers, the daemon stops pinging and systemd restarts it with
/// `Result=watchdog`.
final class TestHooks: Sendable {
    /// Kept only to keep the source alive; never changed after `init`.
    private nonisolated(unsafe) let source: any DispatchSourceSignal

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
#endif
