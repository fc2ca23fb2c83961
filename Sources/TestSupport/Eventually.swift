/// How long a test waits for something the code under test does by itself (a process ready, a line logged, a
/// file written, a connection closed) before it fails: a bound for a loaded two-core machine, never a
/// synchronisation. Every wait of the tests uses it unless the test is about a shorter bound.
package let testDeadline: Duration = .seconds(40)

/// Checks `condition` until it holds or `timeout` passes; whether it held.
///
/// Between checks the task sleeps (1 ms at first, backing off to 20 ms), so a condition that holds soon is seen
/// soon, and a long wait holds no thread of the cooperative pool: the pool has one thread per core, and a test
/// that blocks one stalls every other test in the process and the in-process servers whose handlers need it.
/// The condition is checked once more after the deadline, so a task that resumed late still gets its answer.
package func eventually(timeout: Duration = testDeadline, _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    var pause = Duration.milliseconds(1)
    while true {
        if await condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: min(pause, deadline - ContinuousClock.now))
        pause = min(pause * 2, .milliseconds(20))
    }
}
