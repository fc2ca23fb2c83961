import Dispatch
import Systemd

/// Asks systemd for 5 more seconds of start-up (`EXTEND_TIMEOUT_USEC=`) every second (`interval`), from the load of the state
/// file until READY=1: the load, the replay of the change journal a crash left and the save of a migrated file
/// grow with the state, and `TimeoutStartSec=` should stop a start that hangs, not one that is busy.
final class StartTimeoutExtension {
    private let timer: any DispatchSourceTimer

    /// Starts extending; the first extension comes `interval` from now.
    init(notifier: any ServiceNotifier, interval: Duration = .seconds(1)) {
        let milliseconds = Int(
            interval.components.seconds * 1_000 + interval.components.attoseconds / 1_000_000_000_000_000)
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "workspaced.start-timeout"))
        timer.schedule(deadline: .now() + .milliseconds(milliseconds), repeating: .milliseconds(milliseconds))
        timer.setEventHandler { try? notifier.extendTimeout(by: .seconds(5)) }
        timer.resume()
    }

    /// Stops extending (READY=1 is next, or the start failed). Calling it again does nothing.
    func stop() { timer.cancel() }

    deinit { timer.cancel() }
}
