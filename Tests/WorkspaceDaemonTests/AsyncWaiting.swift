import TestSupport

// Waiting without holding a thread. Synchronous tests run on the cooperative pool, which has one thread per core;
// a test that blocks for many seconds (`waitUntil`, `RunningProcess.wait`) on a two-core machine starves the
// async tests running beside it. Long process tests poll with these instead.

/// Polls `condition` every 20 ms, sleeping in between, until it holds or `timeout` passes; returns whether it held.
func eventually(timeout: Duration = .seconds(30), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return true
}

/// Polls the async `condition` every 20 ms until it holds or `timeout` passes; whether it held.
func eventuallyAsync(timeout: Duration = .seconds(30), _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while await !condition() {
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return true
}

/// Waits up to `timeout` for `process` to exit without blocking a thread; its exit status, or `nil`.
func exitStatus(of process: RunningProcess, timeout: Duration) async -> Int32? {
    await process.waitForExit(timeout: timeout)
}

extension DaemonHarness {
    /// Waits, without blocking a thread, until a notify datagram says READY=1.
    func becomesReady(timeout: Duration = .seconds(40)) async -> Bool {
        await waitForMessageAsync(timeout: timeout) { $0.split(separator: "\n").contains("READY=1") }
    }
}
