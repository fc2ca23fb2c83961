import Foundation
import StateStore
import TestSupport
import Testing

/// Real processes killed at random instants: what was reported durable must be in the file, and a SIGTERM must
/// leave the last accepted change in it.
@Suite("PersistentState in a real process: SIGKILL and SIGTERM", .serialized, .timeLimit(.minutes(3)))
struct CrashTests {
    static let arguments = ["--debounce-ms", "2", "--max-delay-ms", "10"]
    /// The rounds of each test run in lanes side by side, each lane on its own file (the rounds of one lane follow
    /// each other on it), so a test's rounds take a fraction of the time they took one after the other.
    static let lanes = 4

    /// Runs `body(lane)` for every lane at once and returns the sum of what they return.
    static func inLanes(_ body: @escaping @Sendable (Int) async throws -> Int) async throws -> Int {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for lane in 0..<lanes { group.addTask { try await body(lane) } }
            return try await group.reduce(0, +)
        }
    }

    /// 200 rounds in all, and more on a machine so loaded that a lane had fewer than its share of 50 durable
    /// reports (each round is checked the same way; the count only says the rounds exercised durability at all).
    /// Async, so the waits hold no thread of the pool.
    @Test func afterSIGKILLTheFileLoadsAndHoldsEverythingReportedDurable() async throws {
        let reported = try await Self.inLanes { lane in
            try await Self.sigkillRounds(
                lane: lane, rounds: 200 / Self.lanes, reports: (50 + Self.lanes - 1) / Self.lanes)
        }
        #expect(reported >= 50, "too few durable reports (\(reported)) to mean anything")
    }

    /// At least `rounds` rounds of start, wait a random instant, SIGKILL, load, on one file; more (up to five times
    /// as many) until `reports` durable reports came in. Returns the durable reports.
    static func sigkillRounds(lane: Int, rounds: Int, reports: Int) async throws -> Int {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("state.json")
        var generator = SystemRandomNumberGenerator()
        var reported = 0
        var lastStored: UInt64 = 0
        var round = 0
        while round < rounds || (reported < reports && round < 5 * rounds) {
            defer { round += 1 }
            let tester = try CrashTesterProcess(path: path, arguments: Self.arguments)
            // A round that fails before its own kill must not leave the tester changing the state forever.
            defer { if tester.process.exitStatus == nil { kill(tester.pid, SIGKILL) } }
            if round % 10 == 9 {
                // Some rounds die while starting.
                try await Task.sleep(for: .microseconds(UInt64.random(in: 0...20_000, using: &generator)))
            } else {
                try #require(await tester.line(startingWith: "ready") != nil)
                // Time under test: a kill at a random instant.
                try await Task.sleep(for: .microseconds(UInt64.random(in: 0...40_000, using: &generator)))
            }
            kill(tester.pid, SIGKILL)
            await tester.finish()
            #expect(tester.process.exitStatus == 128 + SIGKILL)
            let durable = tester.durableRevisions.max() ?? 0
            reported += tester.durableRevisions.count
            let stored = try storedCrashTesterRevision(path: path)
            #expect(
                stored >= durable, "lane \(lane) round \(round): file holds \(stored), \(durable) was reported durable")
            #expect(
                stored >= lastStored, "lane \(lane) round \(round): the file went back from \(lastStored) to \(stored)")
            lastStored = stored
        }
        #expect(try directory.names().filter { $0.contains(".tmp-") }.isEmpty)
        return reported
    }

    /// 100 rounds in all.
    @Test func afterSIGTERMTheProcessExitsCleanlyAndTheFileHoldsTheLastAcceptedChange() async throws {
        _ = try await Self.inLanes { lane in
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let path = directory.file("state.json")
            var generator = SystemRandomNumberGenerator()
            for round in 0..<(100 / Self.lanes) {
                let tester = try CrashTesterProcess(path: path, arguments: Self.arguments)
                defer { if tester.process.exitStatus == nil { kill(tester.pid, SIGKILL) } }
                try #require(await tester.line(startingWith: "ready") != nil)
                // Time under test: a kill at a random instant.
                try await Task.sleep(for: .microseconds(UInt64.random(in: 0...40_000, using: &generator)))
                kill(tester.pid, SIGTERM)
                let accepted = await tester.line(startingWith: "accepted ").flatMap { UInt64($0.dropFirst(9)) }
                await tester.finish()
                #expect(tester.process.exitStatus == 0)
                let stored = try storedCrashTesterRevision(path: path)
                #expect(
                    accepted == stored,
                    "lane \(lane) round \(round): accepted \(String(describing: accepted)), file \(stored)")
                #expect((tester.durableRevisions.max() ?? 0) <= stored)
            }
            return 0
        }
    }
}
