import Glibc

extension Workspaced {
    /// Runs ``main(seams:)`` as a detached task on Swift's global executor and parks the calling thread (the
    /// process's main thread) until the task exits the process: with status 0 when `main(seams:)` returns, or
    /// with the status it exits with itself.
    ///
    /// The executables' entry points are synchronous and call this, instead of being `async`: an `async` entry
    /// point drains the main queue with `dispatch_main()`, which ends the main thread with `pthread_exit`, and on
    /// glibc that loads libgcc_s.so.1 (a `dlopen` at every start) and unwinds the main thread's stack through the
    /// binary's 1 MB unwind table before the program's first job runs on a worker: all on the way to `READY=1`.
    /// Nothing in the commands uses the main actor or the main queue. A signal that comes to the parked thread
    /// runs its handler there, and the thread parks again.
    package static func runParkingMainThread(seams: WorkspacedSeams) -> Never {
        Task.detached {
            await main(seams: seams)
            Glibc.exit(0)
        }
        while true { pause() }
    }
}
