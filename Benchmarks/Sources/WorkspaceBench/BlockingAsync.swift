import Dispatch
import Synchronization

/// Runs `body` in a task and blocks the calling thread until it returns, so that main.swift's switch stays
/// synchronous top-level code.
func blocking<Value: Sendable>(_ body: @escaping @Sendable () async throws -> Value) throws -> Value {
    let outcome = Outcome<Value>()
    Task.detached {
        do {
            outcome.finish(.success(try await body()))
        } catch {
            outcome.finish(.failure(error))
        }
    }
    return try outcome.wait()
}

/// The result of a task that a thread waits for.
private final class Outcome<Value: Sendable>: Sendable {
    private let result = Mutex<Result<Value, any Error>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    func finish(_ value: Result<Value, any Error>) {
        result.withLock { $0 = value }
        done.signal()
    }

    func wait() throws -> Value {
        done.wait()
        return try result.withLock { $0! }.get()
    }
}
