import Testing

/// Runs each case of a test (each test of a suite it is applied to) on the one thread that all heavy tests share,
/// ``HeavyTestTrait/lane``, and not on the cooperative pool.
///
/// The pool has as many threads as the machine has cores, two here and in CI, and Swift Testing starts every test
/// of the process at once. A test that computes for seconds without suspending (a 15 MB decode in a debug build,
/// a million random edits) or that blocks on a synchronous network call holds a pool thread all that time: two of
/// them stopped every other test of the process, with the in-process servers whose handlers need the pool, for 9
/// to 25 s, and the clients of those servers timed out. Such a test carries this trait. Heavy tests then take
/// turns on the lane (at each suspension, in the order they came), the pool stays free for the rest, and the
/// kernel shares the cores between the lane and the pool: one heavy thread beside two pool threads. (A thread for
/// each heavy test instead put a dozen of them beside the pool's two, and the pool still stalled for 6 to 17 s.)
///
/// Only a test's own code and its child tasks run on the lane; a `Task {}` it starts, and the actors it calls, run
/// where they would without the trait. A heavy test must not block waiting for another heavy test.
package struct HeavyTestTrait: TestTrait, SuiteTrait, TestScoping {
    /// The thread the heavy tests of the process share.
    package static let lane = ThreadTaskExecutor(name: "heavy tests")

    /// Applied to a suite, the trait applies to each of its tests.
    package var isRecursive: Bool { true }

    /// A scope for each test case; none for a suite as a whole, whose tests get their own.
    package func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Runs `function` with a preference for the lane.
    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(Self.lane) { try await function() }
    }
}

extension Trait where Self == HeavyTestTrait {
    /// Runs the test, or each test of the suite, on the thread that heavy tests share and not on the cooperative
    /// pool: for tests that compute, or block, for long stretches without suspending (``HeavyTestTrait``).
    package static var heavy: Self { HeavyTestTrait() }
}
