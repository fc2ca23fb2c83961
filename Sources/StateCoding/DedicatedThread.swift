import Glibc

/// A thread of its own for work that must not wait for a pool: a Dispatch or Swift concurrency pool whose threads
/// are all blocked would start it late or never. Made with `pthread_create`, detached, with the default stack.
package enum DedicatedThread {
    /// Runs `body` on a new detached thread; if no thread can be made (the process is out of threads or
    /// memory), traps with `pthread_create`'s error number.
    package static func start(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { argument in
                let body = Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue()
                body.run()
                return nil
            }, box)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            fatalError("pthread_create failed: error \(result)")
        }
        pthread_detach(thread)
    }

    /// The closure, boxed to cross `pthread_create`'s one pointer.
    private final class Body: Sendable {
        let run: @Sendable () -> Void

        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
