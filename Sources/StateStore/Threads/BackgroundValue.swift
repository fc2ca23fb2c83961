import Dispatch
import Synchronization

/// A value made on a Dispatch worker while its caller goes on with other work, and taken with ``value``: the
/// caller makes it itself when no worker has begun to (so a busy pool never delays it) and waits for the worker
/// that has. Made exactly once either way. (A replica's prefetched snapshot is one; so is the daemon's metrics
/// registry, made while it reads its configuration.)
package final class BackgroundValue<Value: Sendable>: Sendable {
    private enum Stage: Sendable {
        case pending
        case making
        case made(Value)
    }

    private let stage = Mutex(Stage.pending)
    /// Entered at creation and left once, by whoever made the value.
    private let finished = DispatchGroup()
    private let make: @Sendable () -> Value

    /// Begins making the value with `make` on Dispatch's global queue.
    package init(qos: DispatchQoS.QoSClass = .userInitiated, _ make: @escaping @Sendable () -> Value) {
        self.make = make
        finished.enter()
        DispatchQueue.global(qos: qos).async { [self] in _ = makeUnlessBegun() }
    }

    /// The value: made here when the worker has not begun, otherwise once the worker has made it.
    package var value: Value {
        if let made = makeUnlessBegun() { return made }
        finished.wait()
        guard case .made(let value) = stage.withLock({ $0 }) else {
            preconditionFailure("BackgroundValue: finished without a value")
        }
        return value
    }

    /// Makes the value when nobody has begun to, and returns it; `nil` when someone else has begun.
    private func makeUnlessBegun() -> Value? {
        let claimed = stage.withLock { stage in
            guard case .pending = stage else { return false }
            stage = .making
            return true
        }
        guard claimed else { return nil }
        let value = make()
        stage.withLock { $0 = .made(value) }
        finished.leave()
        return value
    }
}
