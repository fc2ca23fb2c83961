import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A signal that comes while the daemon's signal sources register is neither lost nor fatal. libdispatch registers
/// a source on its manager thread some time after `resume()`; with the signals at SIG_IGN meanwhile (as before the
/// latch), the kernel discarded a SIGTERM sent then and the daemon ran on (the SIGTERM torture found it, one
/// start-up round in a few hundred). `workspaced-testing`'s `WSD_TEST_SIGNAL_WINDOW_MS` holds that window open until
/// a signal is caught in it (at most that long: with SIG_IGN back in place nothing is caught, the start goes on and
/// the stop cases fail).
@Suite("Signals during the signal sources' registration")
struct SignalHandOverTests {
    static let window = ["WSD_TEST_SIGNAL_WINDOW_MS": "20000"]

    /// Starts the daemon with the window held open and sends `signal` into it from a thread of its own the moment
    /// the window opens. The test's own polling needs a thread of the cooperative pool (two, on two cores): under
    /// `make test-stress` other tests held both for longer than the window, the signal came after it closed and the
    /// daemon had loaded.
    static func startAndSignalInWindow(_ harness: TestDaemon, _ signal: Int32) async throws -> RunningProcess {
        let process = try harness.start(environment: window)
        let (pid, outputPath) = (process.pid, process.outputPath)
        let sent = StartedOffThePool { () -> Bool in
            let deadline = ContinuousClock.now + .seconds(30)
            while ContinuousClock.now < deadline {
                let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
                if output.contains("signal window open") { return kill(pid, signal) == 0 }
                usleep(1_000)
            }
            return false
        }
        #expect(await sent.value, "\(process.output.suffix(2000))")
        return process
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aStopInTheWindowExitsZeroBeforeLoading(signal: Int32) async throws {
        let harness = try TestDaemon()
        let process = try await Self.startAndSignalInWindow(harness, signal)
        let status = await process.waitForExit()
        #expect(status == 0, "exit \(status.map(String.init) ?? "none"): \(process.output.suffix(2000))")
        #expect(!harness.messages().contains { $0.split(separator: "\n").contains("READY=1") })
    }

    @Test func aHangUpInTheWindowIsHarmlessAndTheNextStopFlushes() async throws {
        let harness = try TestDaemon()
        let process = try await Self.startAndSignalInWindow(harness, SIGHUP)
        let ready = await eventually {
            harness.messages().contains { $0.split(separator: "\n").contains("READY=1") }
                || process.exitStatus != nil
        }
        #expect(ready && process.exitStatus == nil, "\(process.output.suffix(2000))")
        process.send(SIGTERM)
        let status = await process.waitForExit()
        #expect(status == 0, "exit \(status.map(String.init) ?? "none"): \(process.output.suffix(2000))")
    }
}
