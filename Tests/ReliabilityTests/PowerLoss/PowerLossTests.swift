import Foundation
import StateStore
import StateStoreTesting
import TestSupport
import Testing

@testable import WorkspaceModel
@testable import WorkspaceStorage

/// Issue 15, item 6: power loss at every crash point of the save, the migration with its backup, the quarantine and
/// the legacy import, on ``PowerLossFileSystem``. For each mutating call of the operation, the power is cut just
/// before it; each disk the machine may come back with (names as last fsynced or not, bytes as last fsynced,
/// as written or torn) is written to a real directory and loaded as the daemon loads at start. Every one loads as
/// a version that was acknowledged (the old or the new), nothing is quarantined that was not corrupt before, and
/// once the operation returned, every such disk holds the new version.
@Suite("Power loss at every crash point")
struct PowerLossTests {
    static let directory = "/sim/state"
    static let statePath = directory + "/workspace.json"

    let schema: StateSchema<Workspace>

    init() throws {
        schema = try WorkspaceSchema.make()
    }

    func file(
        _ fileSystem: any FileSystem, path: String = Self.statePath, policy: CorruptFilePolicy = .salvage
    )
        -> StateFile<Workspace>
    {
        StateFile(
            path: path, schema: schema, configuration: StateFileConfiguration(corruptFilePolicy: policy),
            fileSystem: fileSystem, now: { Date(timeIntervalSince1970: 1_795_000_000) })
    }

    /// Writes `disk` under a new real directory (`/sim` replaced by it) and loads it with `load`; returns the
    /// result and the real directory's names, then removes it.
    func loadReal<T>(
        _ disk: PowerLossFileSystem.Disk, _ load: (String) throws -> T
    ) throws -> (T, [String]) {
        let root = FileManager.default.temporaryDirectory.path + "/power-loss-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        for (path, data) in disk.files {
            let real = root + path.dropFirst("/sim".count)
            try FileManager.default.createDirectory(
                atPath: (real as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: real))
        }
        try FileManager.default.createDirectory(atPath: root + "/state", withIntermediateDirectories: true)
        let result = try load(root)
        return (result, (try? FileManager.default.contentsOfDirectory(atPath: root + "/state")) ?? [])
    }

    /// Runs `operation` once without a crash to count its calls, then once per crash point; `check` sees every disk
    /// and whether the operation had returned successfully, and returns what is wrong with it (each an issue).
    /// Adds a row to the reliability summary: disks checked, disks with a problem. Returns the crash points.
    @discardableResult
    func everyCrashPoint(
        _ name: String, files: [String: Data], _ operation: (PowerLossFileSystem) throws -> Void,
        check: (PowerLossFileSystem.Disk, _ completed: Bool) throws -> [String]
    ) throws -> Int {
        let started = ContinuousClock.now
        var disks = 0
        var failed = 0
        func checkAll(_ fileSystem: PowerLossFileSystem, completed: Bool, _ point: String) throws {
            for disk in fileSystem.disksAfterCrash() {
                disks += 1
                let problems = try check(disk, completed)
                if !problems.isEmpty { failed += 1 }
                for problem in problems { Issue.record("\(name), \(point), \(disk): \(problem)") }
            }
        }
        let complete = PowerLossFileSystem(files: files)
        try operation(complete)
        let calls = complete.mutatingCalls
        #expect(calls > 3, "too few calls to crash in: \(calls)")
        try checkAll(complete, completed: true, "after it returned")
        for point in 0..<calls {
            let fileSystem = PowerLossFileSystem(files: files)
            fileSystem.crash(beforeCall: point)
            try? operation(fileSystem)
            #expect(fileSystem.crashed, "no crash before call \(point)")
            try checkAll(fileSystem, completed: false, "crash before call \(point)")
        }
        ReliabilitySummary.record(
            "power loss: \(name) (\(calls) crash points × 6 disks)", rounds: disks, failures: failed,
            duration: ContinuousClock.now - started)
        return calls
    }

    @Test func aSaveLeavesTheOldOrTheNewVersion() throws {
        let oldBytes = try WorkspaceFixtures.data("versions/v4.json")
        let old = try file(PowerLossFileSystem(files: [Self.statePath: oldBytes])).load().model
        let new = schema.initialModel()
        #expect(old != new)
        let points = try everyCrashPoint("save", files: [Self.statePath: oldBytes]) { fileSystem in
            let state = file(fileSystem)
            _ = try state.load()
            try state.save(new)
        } check: { disk, completed in
            var problems: [String] = []
            let (loaded, names) = try loadReal(disk) { root in
                try file(PosixFileSystem(), path: root + "/state/workspace.json").load()
            }
            if loaded.report.source != .file { problems.append("loaded as \(loaded.report.source)") }
            if loaded.model != old && loaded.model != new { problems.append("neither version") }
            if completed, loaded.model != new { problems.append("the saved version is not durable") }
            if names.contains(where: { $0.contains(".tmp-") }) { problems.append("temporary files kept: \(names)") }
            return problems
        }
        #expect(points >= 6)
    }

    @Test func aMigrationKeepsItsBackupAndLeavesTheOldOrTheNewFile() throws {
        let original = try WorkspaceFixtures.data("versions/v1.json")
        let migrated = try file(PowerLossFileSystem(files: [Self.statePath: original])).load().model
        let backup = "workspace.json.v1.bak"
        try everyCrashPoint("migration with its backup", files: [Self.statePath: original]) { fileSystem in
            let state = file(fileSystem)
            let loaded = try state.load()
            try state.save(loaded.model)
        } check: { disk, completed in
            var problems: [String] = []
            if let kept = disk.files[Self.directory + "/" + backup] {
                if kept != original { problems.append("the backup is not the original") }
            }
            let (loaded, _) = try loadReal(disk) { root in
                try file(PosixFileSystem(), path: root + "/state/workspace.json").load()
            }
            if loaded.report.source != .file { problems.append("loaded as \(loaded.report.source)") }
            if loaded.model != migrated { problems.append("not the migrated state") }
            if completed {
                if loaded.report.storedVersion != 4 { problems.append("the migrated file is not durable") }
                if disk.files[Self.directory + "/" + backup] != original { problems.append("no durable backup") }
            }
            return problems
        }
    }

    @Test func aQuarantineNeverLosesTheCorruptBytes() throws {
        let corrupt = Data(#"{"version": 4, "projects": [{"id": "#.utf8)
        try everyCrashPoint("quarantine", files: [Self.statePath: corrupt]) { fileSystem in
            _ = try file(fileSystem, policy: .quarantine).load()
        } check: { disk, completed in
            var problems: [String] = []
            let kept = disk.files.filter { $0.key.hasPrefix(Self.statePath) && $0.value == corrupt }
            if kept.isEmpty { problems.append("the corrupt bytes are gone") }
            if completed {
                if disk.files[Self.statePath] != nil { problems.append("the corrupt file is still in place") }
            }
            let (loaded, names) = try loadReal(disk) { root in
                try file(PosixFileSystem(), path: root + "/state/workspace.json", policy: .quarantine).load()
            }
            if loaded.model != schema.initialModel() { problems.append("not the initial state after the quarantine") }
            if !names.contains(where: { $0.contains(".corrupt-") }) { problems.append("no copy after the next load") }
            return problems
        }
    }

    @Test func anImportIsMarkedOnlyOnceItsStateIsDurable() throws {
        let legacyPath = "/sim/legacy/state.json"
        let legacy = try WorkspaceFixtures.data("versions/v1.json")
        let imported = try file(PowerLossFileSystem(files: [Self.statePath: legacy])).load().model
        let marker = Self.directory + "/imported-from-legacy"
        func source(_ root: String) -> StateImport {
            StateImport(sourcePath: root + "/legacy/state.json", markerPath: root + "/state/imported-from-legacy")
        }
        try everyCrashPoint("legacy import", files: [legacyPath: legacy]) { fileSystem in
            _ = try file(fileSystem).load(importing: source("/sim"))
        } check: { disk, completed in
            var problems: [String] = []
            if disk.files[legacyPath] != legacy { problems.append("the legacy file changed") }
            if disk.files[marker] != nil {
                if disk.files[Self.statePath] == nil { problems.append("a marker without the imported state") }
            }
            let (loaded, _) = try loadReal(disk) { root in
                try file(PosixFileSystem(), path: root + "/state/workspace.json").load(importing: source(root))
            }
            if loaded.model != imported { problems.append("the next start does not have the import") }
            if completed, disk.files[marker] == nil { problems.append("no durable marker") }
            return problems
        }
    }
}
