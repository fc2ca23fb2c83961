import Foundation
import StateStore
import WorkspaceModel
import WorkspaceStorage

/// The workspace file as the daemon loads it at start (policy `salvage`): any bytes either load — migrated,
/// repaired or salvaged — and then save, load again as they are and save the same bytes a second time, or are
/// quarantined once with their bytes kept, or are refused as a newer release's file and left untouched. A load
/// that throws anything else, or traps, is a finding (the promise of the corrupt corpus, CorruptCorpusTests, for
/// inputs no one wrote by hand).
package final class WorkspaceFileFuzzer: FuzzChecking {
    static let name = "workspace.json"
    let schema: StateSchema<Workspace>

    /// A checker with the workspace schema.
    package init() throws {
        schema = try WorkspaceSchema.make()
    }

    func open(_ disk: FuzzFileSystem) -> StateFile<Workspace> {
        StateFile(
            path: FuzzFileSystem.directory + "/" + Self.name, schema: schema,
            configuration: StateFileConfiguration(corruptFilePolicy: .salvage), fileSystem: disk.disk,
            now: { FuzzFileSystem.fixedNow })
    }

    /// Loads `input` as `workspace.json` and checks what follows.
    package func check(_ input: Data) async -> FuzzFinding? {
        checkLoad(input)
    }

    func checkLoad(_ input: Data) -> FuzzFinding? {
        let disk = FuzzFileSystem([Self.name: input])
        let file = open(disk)
        defer { file.unlock() }
        let loaded: LoadedState<Workspace>
        do {
            loaded = try file.load()
        } catch {
            guard case .newerVersion = error else { return finding("the load threw \(error)") }
            return disk.bytes(Self.name) == input ? nil : finding("a refused newer file was changed")
        }
        let copies = disk.names(startingWith: Self.name + ".corrupt-")
        let originalKeptOnce = copies.count == 1 && disk.bytes(copies[0]) == input
        switch loaded.report.source {
        case .quarantined:
            guard originalKeptOnce else { return finding("the quarantined original is not kept once: \(copies)") }
            guard disk.bytes(Self.name) == nil else { return finding("the quarantined file is still in place") }
            guard loaded.model == schema.initialModel() else { return finding("a quarantine kept a state") }
            file.unlock()
            let again = open(disk)
            defer { again.unlock() }
            let copiesAfter = { disk.names(startingWith: Self.name + ".corrupt-") }
            let quarantineDone = (try? again.load())?.report.source == .noFile && copiesAfter() == copies
            return quarantineDone ? nil : finding("the next start did not find the quarantine done")
        case .salvaged:
            guard originalKeptOnce else { return finding("the salvaged original is not kept once: \(copies)") }
            return savesTheSameBytesTwice(file, loaded.model, disk)
        case .file:
            guard copies.isEmpty else { return finding("a file that loaded was copied aside: \(copies)") }
            return savesTheSameBytesTwice(file, loaded.model, disk)
        case .noFile, .imported:
            return finding("a file in place loaded as \(loaded.report.source)")
        }
    }

    /// Saves `model`, loads it as it is and equal to `model` (what was served is what was saved), saves that and
    /// compares the bytes.
    private func savesTheSameBytesTwice(
        _ file: StateFile<Workspace>, _ model: Workspace, _ disk: FuzzFileSystem
    ) -> FuzzFinding? {
        do {
            try file.save(model)
            let first = disk.bytes(Self.name)
            // A clean stop: the next start continues the lineage, so the second save may write the same bytes.
            try file.recordCleanStop(revision: file.revision)
            file.unlock()
            let reopened = open(disk)
            defer { reopened.unlock() }
            let reloaded = try reopened.load()
            guard reloaded.report.source == .file, reloaded.report.salvage == nil else {
                return finding("the saved state did not load as it is (\(reloaded.report.source))")
            }
            guard reloaded.model == model else { return finding("the saved state loads as another state") }
            try reopened.save(reloaded.model)
            return disk.bytes(Self.name) == first ? nil : finding("a second save wrote other bytes")
        } catch {
            return finding("saving the loaded state failed: \(error)")
        }
    }

    private func finding(_ message: String) -> FuzzFinding {
        FuzzFinding(.workspaceFile, message)
    }
}
