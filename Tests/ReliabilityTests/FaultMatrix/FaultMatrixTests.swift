import Foundation
import TestSupport
import Testing
import WorkspaceDaemon

#if canImport(Glibc)
import Glibc
#endif

/// Issue 15, item 1: the fault matrix on the shipped `workspaced` binary. The LD_PRELOAD shim
/// (`Tests/FaultShim/faultshim.c`) fails one call of the durable replace (open temp, write, short write, fsync
/// temp, close, rename, open directory, fsync directory) or a link, with EIO, ENOSPC, EDQUOT or EROFS, on each write
/// path: the background save, a durable save, the save after a migration, the pre-migration backup, the
/// quarantine, the legacy import's marker and the secrets file.
///
/// Each cell checks that the fault was injected (the shim's log), that the file is byte-identical (or, when the
/// failing call comes after the rename, a valid old or new version), that the failure is visible (status, the
/// log's MESSAGE_ID, the client's error), that reads are served and a durable change is never falsely
/// acknowledged (the change journal makes it durable while the snapshots fail, unless the fault is its own), and that once the fault is lifted the next save succeeds without a restart and leaves no
/// temporary file. The four errnos run in parallel, each on its own daemon.
@Suite("Fault matrix on the workspaced binary (LD_PRELOAD shim)")
struct FaultMatrixTests {
    static let stateFile = "workspace.json"

    @Test("background and durable saves", arguments: Fault.Errno.allCases)
    func everyCallOfASaveFailing(errno: Fault.Errno) async throws {
        let ledger = MatrixLedger("fault matrix: background and durable saves × \(errno.name)")
        defer { ledger.record() }
        let world = try FaultWorld()
        let process = try await world.start()
        try #require(await world.harness.becomesReady(), "\(process.output)")
        #expect(try await world.addFavorite("seed", durable: true).status == 201)
        // The seed is in the change journal; a flush writes the state file the faults then keep from changing.
        #expect(try await curl(world.harness.socketPath, "POST", "/v1/flush").status == 200)
        for operation in Fault.Operation.durableReplace {
            let cell = ledger.cell()
            let fault = Fault(operation: operation, errno: errno, substring: Self.stateFile)
            let before = try #require(world.stateBytes(), "no state file before \(fault)")
            let failedBefore = FaultWorld.count(.saveFailed, in: process.output)
            let recoveredBefore = FaultWorld.count(.saveRecovered, in: process.output)
            try world.shim.set(fault)

            // A plain change is accepted; its background save fails.
            let plain = "\(operation.rawValue)-plain"
            cell.check(try await world.addFavorite(plain).status == 201, "\(fault)")
            if await !eventually(timeout: .seconds(10), { world.shim.count(fault) > 0 }) {
                let status = (try? await world.status()).map { "\($0)" } ?? "no status"
                cell.fail("\(fault) never injected; status \(status); \(process.output.suffix(300))")
            }
            cell.check(await eventually(timeout: .seconds(10)) { await world.savesFailing() }, "\(fault): status")
            cell.check(
                await eventually(timeout: .seconds(10)) {
                    FaultWorld.count(.saveFailed, in: process.output) > failedBefore
                }, "\(fault): no save-failed MESSAGE_ID")
            // A durable change is made durable by the change journal's fdatasync, which the fault does not touch,
            // unless it fails the directory fsync the journal's newest segment needs (the failed snapshot started
            // it): then it is refused, never acknowledged.
            let durable = try await world.addFavorite("\(operation.rawValue)-durable", durable: true)
            if operation.afterRename {
                cell.check(durable.status == 503 && durable.body.contains("not_durable"), "\(fault): \(durable)")
            } else {
                cell.check(
                    durable.status == 201 && durable.body.contains(#""durableRevision":"#), "\(fault): \(durable)")
            }
            // The file: untouched, or after the rename the old or the new version.
            let during = world.stateBytes()
            if operation.afterRename {
                cell.check(
                    during == before || (FaultWorld.isStateFile(during) && FaultWorld.text(during).contains(plain)),
                    "\(fault): neither the old nor a new version")
            } else {
                cell.check(during == before, "\(fault): the state file changed")
            }
            // Reads are served, with the accepted change.
            let read = try await curl(world.harness.socketPath, "GET", "/v1/favorites")
            cell.check(read.status == 200 && read.body.contains(plain), "\(fault): \(read)")

            // Lifted: the retry succeeds without a restart and leaves no temporary file.
            try world.shim.lift()
            cell.check(
                await eventually { await world.savedAndHealthy() }, "\(fault): no recovery")
            let after = FaultWorld.text(world.stateBytes())
            cell.check(after.contains(plain) && after.contains("\(operation.rawValue)-durable"), "\(fault)")
            cell.check(world.temporaryFiles().isEmpty, "\(fault): left \(world.temporaryFiles())")
            cell.check(
                FaultWorld.count(.saveRecovered, in: process.output) > recoveredBefore, "\(fault): no recovery log")
        }
        process.send(SIGTERM)
        #expect(await process.waitForExit() == 0, "\(process.output)")
    }

    @Test("the save after a migration and the pre-migration backup", arguments: Fault.Errno.allCases)
    func everyCallOfTheMigrationSaveFailing(errno: Fault.Errno) async throws {
        let ledger = MatrixLedger("fault matrix: save after a migration, pre-migration backup × \(errno.name)")
        defer { ledger.record() }
        let original = try WorkspaceFixtures.data("versions/v1.json")
        let faults =
            Fault.Operation.durableReplace.map { Fault(operation: $0, errno: errno, substring: Self.stateFile) }
            + [Fault(operation: .link, errno: errno, substring: ".bak")]
        for fault in faults {
            let cell = ledger.cell()
            let world = try FaultWorld()
            try world.harness.writeState(original)
            try world.shim.set(fault)
            let (process, exit) = try await world.startOutcome(output: "migration.log")
            // The start goes on: the migrated state is served, the failed save is retried.
            cell.check(exit == nil, "\(fault): exited \(exit ?? 0): \(process.output)")
            cell.check(world.shim.count(fault) > 0, "\(fault) never injected")
            cell.check(
                await eventually(timeout: .seconds(10)) { await world.savesFailing() },
                "\(fault): status does not show the failure")
            cell.check(FaultWorld.count(.saveFailed, in: process.output) > 0, "\(fault): no save-failed MESSAGE_ID")
            if fault.operation.afterRename {
                cell.check(FaultWorld.isStateFile(world.stateBytes()), "\(fault): not a state file")
            } else {
                cell.check(world.stateBytes() == original, "\(fault): the original changed before it was kept")
            }
            cell.check(try await curl(world.harness.socketPath, "GET", "/v1/workspace").status == 200)
            try world.shim.lift()
            cell.check(
                await eventually { await world.savedAndHealthy() }, "\(fault): no recovery")
            let backup = world.harness.stateDirectory + "/" + Self.stateFile + ".v1.bak"
            cell.check(
                FileManager.default.contents(atPath: backup) == original, "\(fault): the backup is not the original")
            cell.check(world.stateBytes() != original && FaultWorld.isStateFile(world.stateBytes()), "\(fault)")
            cell.check(world.temporaryFiles().isEmpty, "\(fault): left \(world.temporaryFiles())")
            process.send(SIGTERM)
            cell.check(await process.waitForExit() == 0, "\(fault): \(process.output)")
        }
    }

    @Test("the quarantine of a corrupt file", arguments: Fault.Errno.allCases)
    func everyCallOfTheQuarantineFailing(errno: Fault.Errno) async throws {
        let ledger = MatrixLedger("fault matrix: quarantine × \(errno.name)")
        defer { ledger.record() }
        let corrupt = Data(#"{"version": 4, "projects": [{"id": "#.utf8)
        for operation in [Fault.Operation.link, .openDirectory, .fsyncDirectory] {
            let cell = ledger.cell()
            let fault = Fault(operation: operation, errno: errno, substring: ".corrupt-")
            let world = try FaultWorld()
            try world.harness.writeConfig(#"{"corruptFilePolicy": "quarantine"}"#)
            try world.harness.writeState(corrupt)
            try world.shim.set(fault)
            let (first, exit) = try await world.startOutcome(output: "first.log")
            defer { if exit == nil { first.send(SIGKILL) } }
            cell.check(world.shim.count(fault) > 0, "\(fault) never injected")
            // Refused (74) with the file untouched and no copy left; a restart once the fault is gone quarantines.
            cell.check(exit == 74, "\(fault): \(first.output)")
            cell.check(first.output.contains("could not be moved aside"), "\(fault): \(first.output)")
            cell.check(world.stateBytes() == corrupt, "\(fault): the corrupt file's bytes changed")
            cell.check(!world.directoryNames().contains { $0.contains(".corrupt-") }, "\(world.directoryNames())")
            try world.shim.lift()
            let (second, stillRunning) = try await world.startOutcome(output: "second.log")
            cell.check(stillRunning == nil, "\(fault): the restart failed: \(second.output)")
            let copies = world.directoryNames().filter { $0.contains(".corrupt-") }
            cell.check(copies.count == 1, "\(fault): \(copies)")
            cell.check(
                copies.first.flatMap { FileManager.default.contents(atPath: world.harness.stateDirectory + "/" + $0) }
                    == corrupt, "\(fault): the quarantined copy is not the original")
            second.send(SIGTERM)
            cell.check(await second.waitForExit() == 0)
        }
    }

    @Test("the legacy import's marker", arguments: Fault.Errno.allCases)
    func everyCallOfTheImportMarkerFailing(errno: Fault.Errno) async throws {
        let ledger = MatrixLedger("fault matrix: legacy import marker × \(errno.name)")
        defer { ledger.record() }
        let legacy = try WorkspaceFixtures.data("versions/v1.json")
        for operation in Fault.Operation.durableReplace {
            let cell = ledger.cell()
            let fault = Fault(operation: operation, errno: errno, substring: "imported-from-legacy")
            let world = try FaultWorld()
            let legacyPath = world.harness.root + "/legacy.json"
            try legacy.write(to: URL(fileURLWithPath: legacyPath))
            try world.harness.writeConfig(#"{"legacyStatePath": "\#(legacyPath)"}"#)
            try world.shim.set(fault)
            let (first, exit) = try await world.startOutcome(output: "first.log")
            defer { if exit == nil { first.send(SIGKILL) } }
            cell.check(world.shim.count(fault) > 0, "\(fault) never injected")
            // The import's intent cannot be recorded: nothing is imported, the start is refused (74).
            cell.check(exit == 74, "\(fault): \(first.output)")
            cell.check(world.stateBytes() == nil, "\(fault): a state file without its import record")
            cell.check(!world.directoryNames().contains("imported-from-legacy"), "\(fault)")
            cell.check(world.temporaryFiles().isEmpty, "\(fault): left \(world.temporaryFiles())")
            try world.shim.lift()
            let (second, stillRunning) = try await world.startOutcome(output: "second.log")
            cell.check(stillRunning == nil, "\(fault): the restart failed: \(second.output)")
            cell.check(world.directoryNames().contains("imported-from-legacy"), "\(fault): no marker after the restart")
            cell.check(FaultWorld.isStateFile(world.stateBytes()), "\(fault): not imported after the restart")
            cell.check(FileManager.default.contents(atPath: legacyPath) == legacy, "\(fault): the legacy file changed")
            second.send(SIGTERM)
            cell.check(await second.waitForExit() == 0)
        }
    }

    @Test("the secrets file", arguments: Fault.Errno.allCases)
    func everyCallOfTheSecretsWriteFailing(errno: Fault.Errno) async throws {
        let ledger = MatrixLedger("fault matrix: secrets file × \(errno.name)")
        defer { ledger.record() }
        let world = try FaultWorld()
        let process = try await world.start()
        try #require(await world.harness.becomesReady(), "\(process.output)")
        let secretsPath = world.harness.stateDirectory + "/secrets.json.enc"
        for operation in Fault.Operation.durableReplace {
            let cell = ledger.cell()
            let fault = Fault(operation: operation, errno: errno, substring: "secrets.json.enc")
            let before = try #require(FileManager.default.contents(atPath: secretsPath), "no secrets file")
            try world.shim.set(fault)
            let refused = try await curl(
                world.harness.socketPath, "POST", "/v1/tokens",
                body: #"{"name":"\#(operation.rawValue)","scope":"read"}"#)
            cell.check(world.shim.count(fault) > 0, "\(fault) never injected")
            // A token that is not durably stored is never handed out.
            cell.check(refused.status >= 500 && !refused.body.contains("wsd_"), "\(fault): \(refused)")
            let during = FileManager.default.contents(atPath: secretsPath)
            if operation.afterRename {
                cell.check(during != nil, "\(fault): the secrets file is gone")
            } else {
                cell.check(during == before, "\(fault): the secrets file changed")
            }
            cell.check(try await curl(world.harness.socketPath, "GET", "/v1/tokens").status == 200)
            try world.shim.lift()
            let created = try await curl(
                world.harness.socketPath, "POST", "/v1/tokens", body: #"{"name":"after","scope":"read"}"#)
            cell.check(created.status == 201 && created.body.contains("wsd_"), "\(fault): \(created)")
            cell.check(world.temporaryFiles().isEmpty, "\(fault): left \(world.temporaryFiles())")
        }
        process.send(SIGTERM)
        #expect(await process.waitForExit() == 0, "\(process.output)")
    }
}
