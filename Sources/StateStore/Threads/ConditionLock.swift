import Glibc

/// A mutex with a condition variable, for threads that wait until another changes what the lock guards: the
/// `lock()`, `unlock()`, `wait()` and `broadcast()` of Foundation's `NSCondition`, over `pthread_mutex_t` and
/// `pthread_cond_t` so that StateStore links FoundationEssentials only.
final class ConditionLock: @unchecked Sendable {
    // Allocated once and never moved: pthread objects must keep their address.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// A lock nobody holds, with no thread waiting.
    init() {
        mutex.initialize(to: pthread_mutex_t())
        condition.initialize(to: pthread_cond_t())
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
        precondition(pthread_cond_init(condition, nil) == 0, "pthread_cond_init failed")
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Takes the lock, waiting while another thread holds it.
    func lock() {
        pthread_mutex_lock(mutex)
    }

    /// Gives the lock back.
    func unlock() {
        pthread_mutex_unlock(mutex)
    }

    /// Gives the lock back until another thread calls ``broadcast()`` (or the wait wakes spuriously), then takes it
    /// again: call it in a loop that checks what it waits for. The caller holds the lock.
    func wait() {
        pthread_cond_wait(condition, mutex)
    }

    /// Wakes every thread in ``wait()``. The caller holds the lock.
    func broadcast() {
        pthread_cond_broadcast(condition)
    }
}
