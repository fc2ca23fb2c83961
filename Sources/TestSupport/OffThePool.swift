import Foundation

/// Runs blocking work (a `waitpid`, a blocking read, a child process run to its end) on a thread of its own and
/// returns its result without holding a thread of the cooperative pool meanwhile.
///
/// The pool has as many threads as the machine has cores: two here and in CI. A test that blocks one of them for
/// seconds stalls every other test in the process, and with them the in-process servers whose handlers need the
/// pool, so their clients time out. Blocking work in a test goes through this function instead.
public func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: work()) }
    }
}

/// ``offThePool(_:)`` for work that can throw.
public func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}
