import CIOPriority
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The scrub's thread leaves the disk and the processor to the rest (``DaemonScrub``): the shim really puts the
/// calling thread, and only it, in the idle I/O and CPU classes.
@Suite("scrub priority")
struct ScrubPriorityTests {
    /// The scheduling policy of the calling thread (field 41 of `/proc/thread-self/stat`; SCHED_IDLE is 5).
    static func policy() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/thread-self/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // Fields after the command's closing parenthesis start at field 3.
        let fields = text[text.index(after: close)...].split(separator: " ")
        return fields.count > 38 ? Int(fields[38]) : nil
    }

    @Test func theIdleClassesApplyToTheCallingThreadOnly() async throws {
        let outcome: (io: Int32, cpu: Int32, policy: Int?) = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let io = wsd_ioprio_set_idle()
                let cpu = wsd_sched_set_idle()
                continuation.resume(returning: (io, cpu, Self.policy()))
            }
        }
        // Another thread started afterwards, not from the scrub's (which its children would inherit): untouched.
        let other: Int? = await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: Self.policy()) }
        }
        #expect(outcome.io == 0 && outcome.cpu == 0)
        #expect(outcome.policy == 5, "the scrub thread's policy: SCHED_IDLE (5)")
        #expect(other == 0, "another thread is untouched: SCHED_OTHER (0)")
    }
}
