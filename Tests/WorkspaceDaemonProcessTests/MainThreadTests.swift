import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `workspaced` parks its main thread in pause() instead of ending it with `dispatch_main()`'s `pthread_exit`
/// (`Workspaced.runParkingMainThread(seams:)`), which made glibc load libgcc_s.so.1 and unwind the thread before
/// the start's first job ran; stops and changes work as before.
@Suite("The main thread parks")
struct MainThreadTests {
    @Test func theMainThreadWaitsInPauseAndAStopStillFlushes() async throws {
        let harness = try TestDaemon()
        let process = try harness.start()
        #expect(await harness.becomesReady(), "no READY=1; output: \(process.output)")
        // The thread whose id is the process's waits in pause(). Through dispatch_main() it had unwound itself in
        // pthread_exit and waited in rt_sigsuspend, in libdispatch's destructor of its thread-specific data.
        let call = try #require(Self.currentSystemCall(of: process.pid, thread: process.pid))
        #if arch(x86_64)
        // x86_64's system call numbers (asm/unistd_64.h; Glibc does not import SYS_pause): pause 34, rt_sigsuspend 130.
        #expect(call == 34, "main thread in system call \(call), not pause (34)")
        #else
        // Elsewhere glibc's pause() may itself be rt_sigsuspend: only the thread's presence is checked.
        _ = call
        #endif
        let created = try await curl(
            harness.socketPath, "POST", "/v1/favorites", body: #"{"name":"parked","path":"/srv/parked"}"#)
        #expect(created.status == 201, "\(created.body)")
        process.send(SIGTERM)
        #expect(await process.waitForExit() == 0, "\(process.output)")
        let saved = try String(contentsOfFile: harness.statePath, encoding: .utf8)
        #expect(saved.contains("parked"), "the change was not flushed on SIGTERM: \(saved)")
    }

    /// The number of the system call the thread `thread` of `pid` is blocked in (`/proc/PID/task/TID/syscall`).
    static func currentSystemCall(of pid: pid_t, thread: pid_t) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/syscall", encoding: .utf8) else {
            return nil
        }
        return text.split(separator: " ").first.flatMap { Int($0) }
    }
}
