import Dispatch
import StateStore
import Synchronization
import Testing

/// ``BackgroundValue``: made once, on a worker or by the first caller, and the same value for every caller.
@Suite struct BackgroundValueTests {
    final class Made: Sendable {}

    @Test func theValueIsMadeOnceAndEveryCallerGetsIt() async {
        let makes = Atomic<Int>(0)
        let background = BackgroundValue { () -> Made in
            makes.add(1, ordering: .sequentiallyConsistent)
            return Made()
        }
        let callers = 8
        let seen = Mutex<[ObjectIdentifier]>([])
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                DispatchQueue.concurrentPerform(iterations: callers) { _ in
                    let made = background.value
                    seen.withLock { $0.append(ObjectIdentifier(made)) }
                }
                continuation.resume()
            }
        }
        #expect(makes.load(ordering: .sequentiallyConsistent) == 1)
        let identities = seen.withLock { $0 }
        #expect(identities.count == callers)
        #expect(Set(identities).count == 1, "callers got different values")
    }

    @Test func theWorkerMakesTheValueWithoutACaller() async {
        let made = DispatchSemaphore(value: 0)
        let background = BackgroundValue { () -> Int in
            made.signal()
            return 42
        }
        let signalled = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: made.wait(timeout: .now() + 60) == .success) }
        }
        #expect(signalled, "the worker never made the value")
        #expect(background.value == 42)
    }
}
