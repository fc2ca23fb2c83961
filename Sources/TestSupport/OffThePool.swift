import Foundation
import Synchronization

/// Runs blocking work (a `waitpid`, a blocking read, a child process run to its end) on a thread of its own and
/// returns its result without holding a thread of the cooperative pool meanwhile.
///
/// The pool has as many threads as the machine has cores: two here and in CI. A test that blocks one of them for
/// seconds stalls every other test in the process, and with them the in-process servers whose handlers need the
/// pool, so their clients time out. Blocking work in a test goes through this function instead.
package func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await StartedOffThePool(work).value
}

/// ``offThePool(_:)`` for work that can throw.
package func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}

/// Work started at once on a thread of its own, its result awaited later: unlike ``offThePool(_:)`` called
/// later, the work does not wait for the awaiting task to be resumed by a cooperative thread first. A test that
/// times when something arrives starts the read before it does anything else, so that a busy pool cannot delay
/// the instant it takes.
package final class StartedOffThePool<T: Sendable>: Sendable {
    private let state = Mutex<(result: T?, waiter: CheckedContinuation<T, Never>?)>((nil, nil))

    /// Starts `work` on a new thread before returning.
    package init(_ work: @escaping @Sendable () -> T) {
        Thread.detachNewThread { [self] in
            let result = work()
            let waiter = state.withLock { state -> CheckedContinuation<T, Never>? in
                guard let waiter = state.waiter else {
                    state.result = result
                    return nil
                }
                state.waiter = nil
                return waiter
            }
            waiter?.resume(returning: result)
        }
    }

    /// The work's result, once it returned.
    package var value: T {
        get async {
            await withCheckedContinuation { continuation in
                let done = state.withLock { state -> T? in
                    guard let result = state.result else {
                        state.waiter = continuation
                        return nil
                    }
                    return result
                }
                if let done { continuation.resume(returning: done) }
            }
        }
    }
}
