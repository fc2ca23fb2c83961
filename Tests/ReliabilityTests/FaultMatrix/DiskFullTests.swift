import Foundation
import TestSupport
import Testing
import WorkspaceDaemon

#if canImport(Glibc)
import Glibc
#endif

/// Issue 15, item 2: a real full disk under the daemon binary, on a small tmpfs and on an ext4 loop image made with
/// `mkfs.ext4 -m 0`. While the disk is full plain changes are accepted while the change journal's last block has
/// room, then answered 503 (applied, not acknowledged), the snapshot fails visibly, a durable change gets 503, reads
/// are served and the file keeps its bytes; SIGTERM then exits 74 with the old file intact; after a
/// restart (still full) a change waits for space, and once space is freed the save succeeds without a restart.
@Suite("A real full disk under workspaced", .serialized)
struct DiskFullTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case tmpfs, ext4
        var testDescription: String { rawValue }
    }

    @Test(arguments: Kind.allCases)
    func aFullDiskKeepsTheFileAndSavesOnceThereIsSpace(kind: Kind) async throws {
        let started = ContinuousClock.now
        let cell = MatrixCell()
        let world = try FaultWorld()
        let test = "aFullDiskKeepsTheFileAndSavesOnceThereIsSpace(\(kind))"
        let mounted: SmallTmpfs?
        switch kind {
        case .tmpfs:
            mounted = try SmallTmpfs.mountIfRoot(at: world.harness.stateDirectory, size: "256k", test: test)
        case .ext4:
            mounted = try await SmallTmpfs.mountExt4IfRoot(
                at: world.harness.stateDirectory, image: world.harness.root + "/ext4.img", test: test)
        }
        guard let disk = mounted else { return }
        defer { disk.unmount() }

        let first = try world.harness.start(output: "first.log")
        try #require(await world.harness.becomesReady(), "\(first.output)")
        cell.check(try await world.addFavorite("before", durable: true).status == 201, "the first durable change")
        cell.check(try await curl(world.harness.socketPath, "POST", "/v1/flush").status == 200, "the flush")
        let before = try #require(world.stateBytes())
        try disk.fill()

        // The change journal takes plain changes while its last block has room; the first that finds none is
        // applied but answered 503, and from then on every change until a snapshot can be written.
        var answers: [Int] = []
        for index in 0..<400 where answers.last != 503 {
            answers.append(try await world.addFavorite("while-full-\(index)").status)
        }
        cell.check(
            answers.last == 503 && answers.dropLast().allSatisfy { $0 == 201 }, "plain changes while full: \(answers)")
        cell.check(await eventually(timeout: .seconds(10)) { await world.savesFailing() }, "status while full")
        cell.check(
            await eventually(timeout: .seconds(10)) { FaultWorld.count(.saveFailed, in: first.output) > 0 },
            "no save-failed MESSAGE_ID: \(first.output)")
        let durable = try await world.addFavorite("durable-while-full", durable: true)
        cell.check(durable.status == 503 && durable.body.contains("not_durable"), "durable while full: \(durable)")
        let read = try await curl(world.harness.socketPath, "GET", "/v1/favorites")
        cell.check(read.status == 200 && read.body.contains("while-full"), "reads while full: \(read)")
        cell.check(world.stateBytes() == before, "the file changed while the disk was full")

        // SIGTERM while full: the flush fails, the exit says so (74), the old file is intact.
        first.send(SIGTERM)
        let status = await first.waitForExit()
        cell.check(status == 74, "SIGTERM while full exited \(status.map(String.init) ?? "-"): \(first.output)")
        cell.check(world.stateBytes() == before, "the file changed on the failed flush")
        cell.check(world.temporaryFiles().isEmpty, "left \(world.temporaryFiles())")

        // Started again, still full: a change waits for space and is saved once there is some, without a restart.
        let (second, exit) = try await world.startOutcome(output: "second.log")
        cell.check(exit == nil, "the restart on a full disk failed: \(second.output)")
        // The replayed journal needs a new segment, which a full disk refuses: the change is answered 503, applied.
        let afterRestart = try await world.addFavorite("after-restart")
        cell.check([201, 503].contains(afterRestart.status), "a change after the restart: \(afterRestart)")
        cell.check(await eventually(timeout: .seconds(10)) { await world.savesFailing() }, "status after restart")
        try disk.remove()
        cell.check(
            await eventually { await world.savedAndHealthy() },
            "no recovery: \(second.output)")
        cell.check(FaultWorld.text(world.stateBytes()).contains("after-restart"), "the change is not on disk")
        cell.check(world.temporaryFiles().isEmpty, "left \(world.temporaryFiles())")
        cell.check(FaultWorld.count(.saveRecovered, in: second.output) > 0, "no save-recovered MESSAGE_ID")
        second.send(SIGTERM)
        cell.check(await second.waitForExit() == 0, "the stop after recovery")
        ReliabilitySummary.record(
            "real full disk (\(kind)): save, durable, SIGTERM → 74, recovery", rounds: 1, failures: cell.failed ? 1 : 0,
            duration: ContinuousClock.now - started)
    }
}
