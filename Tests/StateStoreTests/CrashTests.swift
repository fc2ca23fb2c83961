import Foundation
import StateStore
import Testing

/// Real processes killed at random instants: what was reported durable must be in the file, and a SIGTERM must
/// leave the last accepted change in it.
@Suite("PersistentState in a real process: SIGKILL and SIGTERM", .serialized, .timeLimit(.minutes(3)))
struct CrashTests {
    static let arguments = ["--debounce-ms", "2", "--max-delay-ms", "10"]

    @Test func afterSIGKILLTheFileLoadsAndHoldsEverythingReportedDurable() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.json")
        var generator = SystemRandomNumberGenerator()
        var reported = 0
        var lastStored: UInt64 = 0
        // 200 rounds, and more on a machine so loaded that fewer than 50 durable reports came in (each round is
        // checked the same way; the count only says the rounds exercised durability at all).
        var round = 0
        while round < 200 || (reported < 50 && round < 1000) {
            defer { round += 1 }
            let tester = try CrashTesterProcess(path: path, arguments: Self.arguments)
            if round % 10 == 9 {
                usleep(UInt32.random(in: 0...20_000, using: &generator))  // some rounds die while starting
            } else {
                try #require(tester.line(startingWith: "ready") != nil)
                usleep(UInt32.random(in: 0...40_000, using: &generator))
            }
            kill(tester.pid, SIGKILL)
            _ = tester.finish()
            #expect(tester.process.terminationReason == .uncaughtSignal)
            let durable = tester.durableRevisions.max() ?? 0
            reported += tester.durableRevisions.count
            let stored = try storedCrashTesterRevision(path: path)
            #expect(stored >= durable, "round \(round): file holds \(stored), \(durable) was reported durable")
            #expect(stored >= lastStored, "round \(round): the file went back from \(lastStored) to \(stored)")
            lastStored = stored
        }
        #expect(reported >= 50, "too few durable reports (\(reported)) in \(round) rounds to mean anything")
        #expect(try directory.names().filter { $0.contains(".tmp-") }.isEmpty)
    }

    @Test func afterSIGTERMTheProcessExitsCleanlyAndTheFileHoldsTheLastAcceptedChange() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.json")
        var generator = SystemRandomNumberGenerator()
        for round in 0..<100 {
            let tester = try CrashTesterProcess(path: path, arguments: Self.arguments)
            try #require(tester.line(startingWith: "ready") != nil)
            usleep(UInt32.random(in: 0...40_000, using: &generator))
            kill(tester.pid, SIGTERM)
            let accepted = tester.line(startingWith: "accepted ").flatMap { UInt64($0.dropFirst(9)) }
            _ = tester.finish()
            #expect(tester.process.terminationReason == .exit && tester.process.terminationStatus == 0)
            let stored = try storedCrashTesterRevision(path: path)
            #expect(accepted == stored, "round \(round): accepted \(String(describing: accepted)), file \(stored)")
            #expect((tester.durableRevisions.max() ?? 0) <= stored)
        }
    }
}
