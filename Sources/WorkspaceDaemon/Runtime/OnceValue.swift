import Synchronization

/// A value set once that any number of tasks await: each waiter is resumed when it is set, and a task that asks
/// later gets it at once. The first ``set(_:)`` wins; later ones change nothing.
package final class OnceValue<Value: Sendable>: Sendable {
    private let state = Mutex<(value: Value?, waiters: [CheckedContinuation<Value, Never>])>((nil, []))

    /// A value not set yet.
    package init() {}

    /// The value, once it is set.
    package var value: Value {
        get async {
            await withCheckedContinuation { continuation in
                let known = state.withLock { state -> Value? in
                    if let value = state.value { return value }
                    state.waiters.append(continuation)
                    return nil
                }
                if let known { continuation.resume(returning: known) }
            }
        }
    }

    /// Sets the value and resumes every waiter, unless it was set before.
    package func set(_ value: Value) {
        let waiters = state.withLock { state -> [CheckedContinuation<Value, Never>] in
            guard state.value == nil else { return [] }
            state.value = value
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: value) }
    }
}
