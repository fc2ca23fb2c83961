import Dispatch
import StateStore
import Synchronization

/// Waits for a snapshot of a revision to be saved, whatever made the revision durable first: with the change
/// journal, `waitUntilDurable` returns once the journal holds a change, before the state file does, and the
/// persistence benchmarks measure the state file's saves. Pass ``observe(_:)`` as the state's observer.
final class SaveSignal: Sendable {
    private let saved = Mutex<UInt64>(0)
    private let semaphore = DispatchSemaphore(value: 0)

    /// The observer to pass to `PersistentState`: notes every saved revision.
    func observe(_ event: PersistenceEvent) {
        guard case .saved(let revision, _, _) = event else { return }
        saved.withLock { $0 = max($0, revision) }
        semaphore.signal()
    }

    /// Returns once a save of `revision` or later is done; throws after `timeout`.
    func wait(for revision: UInt64, timeout: Duration = .seconds(600)) throws {
        let deadline = ContinuousClock.now + timeout
        while saved.withLock({ $0 }) < revision {
            guard ContinuousClock.now < deadline else { throw BenchError("no save of revision \(revision)") }
            _ = semaphore.wait(timeout: .now() + .milliseconds(100))
        }
    }
}
