import Foundation

/// A task executor with one thread of its own: the jobs of tasks that prefer it run on that thread, one at a time,
/// in the order they came, and never on a thread of the cooperative pool. The thread lives as long as the process.
///
/// ``HeavyTestTrait`` runs the tests that compute for long stretches on one, so that they hold no thread of the
/// pool while they do.
package final class ThreadTaskExecutor: TaskExecutor, @unchecked Sendable {
    /// Guards `jobs`; the thread waits on it for work.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    /// What the executor was started for: the name ``current`` gives on its thread.
    package let name: String

    /// Starts the thread for `name`. (The thread's name as `top` shows it is not `name`: Linux keeps 15 bytes of
    /// a thread's name, and a new thread starts with the name of the thread that made it.)
    package init(name: String) {
        self.name = name
        let thread = Thread { [self] in
            Thread.current.threadDictionary[Self.nameKey] = name
            while true {
                next().runSynchronously(on: asUnownedTaskExecutor())
            }
        }
        thread.start()
    }

    /// The ``name`` of the executor whose thread this is; `nil` on any other thread.
    package static var current: String? {
        Thread.current.threadDictionary[nameKey] as? String
    }

    private static let nameKey = "TestSupport.ThreadTaskExecutor"

    /// Queues `job` for the thread.
    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// The next job, waiting for one.
    private func next() -> UnownedJob {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty { condition.wait() }
        return jobs.removeFirst()
    }
}
