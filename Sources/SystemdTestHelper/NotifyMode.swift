import Systemd

/// Sends a fixed sequence through `LibsystemdNotifier`; prints `enabled=`, then `ok` or `error=`.
enum NotifyMode {
    static func run() {
        let notifier = LibsystemdNotifier()
        print("enabled=\(notifier.isEnabled)")
        do {
            try notifier.ready(status: "started")
            try notifier.status("serving 2 workspaces")
            try notifier.reloading(status: "reloading configuration")
            try notifier.ready()
            try notifier.watchdog()
            try notifier.extendTimeout(by: .milliseconds(1500))
            try notifier.failure(errno: 5, status: "disk failed")
            try notifier.stopping(status: "shutting down")
            print("ok")
        } catch {
            print("error=\(error)")
        }
    }
}
