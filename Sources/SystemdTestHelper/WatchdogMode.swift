import Synchronization
import Systemd

#if canImport(Glibc)
import Glibc
#endif

/// Runs a `Watchdog` configured from the process environment whose health check passes `HEALTHY_ROUNDS` times,
/// for `ROUNDS` ping intervals; prints `timeout_usec=` (or `watchdog=off`) and the events.
enum WatchdogMode {
    static func run(arguments: [String]) async {
        let configuration: WatchdogConfiguration?
        do {
            configuration = try WatchdogConfiguration.fromProcessEnvironment()
        } catch {
            print("error=\(error)")
            return
        }
        guard let configuration else {
            print("watchdog=off")
            return
        }
        let (seconds, attoseconds) = configuration.timeout.components
        print("timeout_usec=\(seconds * 1_000_000 + attoseconds / 1_000_000_000_000)")
        guard arguments.count == 2, let healthyRounds = Int(arguments[0]), let rounds = Int(arguments[1]) else {
            return
        }
        let checks = Atomic<Int>(0)
        let events = Mutex<[Watchdog.Event]>([])
        let watchdog = Watchdog(
            configuration: configuration, notifier: LibsystemdNotifier(),
            observer: { event in events.withLock { $0.append(event) } },
            healthCheck: { checks.add(1, ordering: .relaxed).newValue <= healthyRounds }
        )
        watchdog.start()
        try? await Task.sleep(for: configuration.pingInterval * Double(rounds))
        watchdog.stop()
        let seen = events.withLock { $0 }
        print("pinged=\(seen.filter { $0 == .pinged }.count)")
        print("unhealthy=\(seen.filter { $0 == .unhealthy }.count)")
    }
}
