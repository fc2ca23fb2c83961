import Foundation
import StateStore
import StateStoreSample
import StateStoreTesting
import TestSupport
import Testing

@Suite("Importing a state file from another path once")
struct ImportTests {
    /// A state directory and a legacy directory side by side, and a state file that imports from the legacy one.
    struct Setup {
        let directory: TemporaryDirectory
        let fileSystem: FaultInjectingFileSystem
        let file: StateFile<Notebook>
        let source: StateImport

        init(staged: Bool = false) throws {
            directory = try TemporaryDirectory()
            try FileManager.default.createDirectory(atPath: directory.file("state"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: directory.file("legacy"), withIntermediateDirectories: true)
            fileSystem = FaultInjectingFileSystem()
            file = try notebookFile(directory, name: "state/notebook.json", fileSystem: fileSystem)
            source = StateImport(
                sourcePath: directory.file("legacy/state.json"),
                stagedCopyPath: staged ? directory.file("state/.legacy-copy") : nil,
                markerPath: directory.file("state/imported-from-legacy"))
        }

        /// A second state file on the same paths, as the next start of the process would open.
        func reopened() throws -> StateFile<Notebook> {
            file.unlock()
            return try notebookFile(directory, name: "state/notebook.json", fileSystem: fileSystem)
        }

        func marker() throws -> ImportMarker {
            try JSONDecoder().decode(ImportMarker.self, from: directory.read("state/imported-from-legacy"))
        }

        var stateExists: Bool { FileManager.default.fileExists(atPath: directory.file("state/notebook.json")) }
        var markerExists: Bool { FileManager.default.fileExists(atPath: source.markerPath) }
    }

    /// The SHA-256 of `data` in hex, as `sha256sum` (a program apart from the code under test) computes it.
    static func sha256Hex(_ data: Data) async throws -> String {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("input", data)
        let result = try await runCommand(["/usr/bin/sha256sum", directory.file("input")])
        try #require(result.status == 0, "\(result.output)")
        return String(result.output.prefix(64))
    }

    @Test func aLegacyFileIsMigratedWrittenAndMarkedAndNeverTouched() async throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let legacy = try Fixtures.data("notebook/v1.json")
        try setup.directory.write("legacy/state.json", legacy)
        let loaded = try setup.file.load(importing: setup.source)
        #expect(loaded.report.source == .imported)
        #expect(loaded.report.importResult?.outcome == .imported)
        #expect(loaded.report.stepsApplied == [1...2, 2...3, 3...4])
        #expect(loaded.report.summary.hasPrefix("imported \(setup.source.sourcePath)"))
        #expect(try setup.directory.read("legacy/state.json") == legacy, "the source is never modified")
        let written = try setup.directory.read("state/notebook.json")
        #expect(try jsonObject(written)["version"] as? Int == 4)
        #expect(try setup.file.encode(loaded.model) == written, "the state file holds the imported model")
        let marker = try setup.marker()
        #expect(marker.source == setup.source.sourcePath)
        #expect(marker.size == legacy.count)
        #expect(marker.sha256 == (try await Self.sha256Hex(legacy)))
        #expect(marker.version == 1)
        #expect(marker == loaded.report.importResult?.marker)
        #expect(!FileManager.default.fileExists(atPath: setup.source.pendingPath))
        #expect(try setup.directory.names() == ["legacy", "state"])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: setup.directory.file("state")).sorted() == [
                ".notebook.json.lock", "imported-from-legacy", "notebook.json",
            ], "no backup of a file that was never the state file, no temp file, no intent")

        // The order: intent durable, then the state file, then the marker.
        let renames = setup.fileSystem.calls.filter { $0.operation == .rename }.map(\.path)
        #expect(
            renames == [setup.source.pendingPath, setup.directory.file("state/notebook.json"), setup.source.markerPath])

        // The next start loads the state file and imports nothing.
        let again = try setup.reopened().load(importing: setup.source)
        #expect(again.report.source == .file)
        #expect(again.report.importResult?.outcome == .alreadyImported)
        #expect(again.model == loaded.model)
    }

    @Test func aLegacyFileWithABadRecordIsSalvagedUnderTheSalvagePolicyAndRefusedOtherwise() throws {
        let legacy =
            Data(
                #"{"notes":[{"id":"n1","title":"Kept","kind":0,"tags":[]},{"id":"n2","title":["bad"],"kind":0,"tags":[]}],"#
                    .utf8) + Data(#""author":{"name":"Ada Lovelace","age":36}}"#.utf8)
        let strict = try Setup()
        defer { strict.directory.remove() }
        try strict.directory.write("legacy/state.json", legacy)
        let refused = try strict.file.load(importing: strict.source)
        #expect(refused.report.importResult?.outcome == .refused)
        #expect(!strict.stateExists && !strict.markerExists)

        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try FileManager.default.createDirectory(atPath: directory.file("state"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory.file("legacy"), withIntermediateDirectories: true)
        try directory.write("legacy/state.json", legacy)
        let file = try notebookFile(
            directory, name: "state/notebook.json",
            configuration: StateFileConfiguration(corruptFilePolicy: .salvage))
        let source = StateImport(
            sourcePath: directory.file("legacy/state.json"), stagedCopyPath: nil,
            markerPath: directory.file("state/imported-from-legacy"))
        let loaded = try file.load(importing: source)
        #expect(loaded.report.source == .imported)
        #expect(loaded.report.importResult?.outcome == .imported)
        #expect(loaded.model.notes.map(\.id) == ["n1"])
        #expect(loaded.report.salvage?.droppedRecords.map(\.path) == ["notes[1]"])
        #expect(loaded.report.salvage?.coercedFields.map(\.path) == ["author.age"])
        #expect(loaded.report.salvage?.originalKeptAt == source.sourcePath)
        #expect(try directory.read("legacy/state.json") == legacy, "the source is never modified")
        #expect(FileManager.default.fileExists(atPath: source.markerPath))
    }

    @Test func noLegacyFileMeansNothingHappens() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let loaded = try setup.file.load(importing: setup.source)
        #expect(loaded.report.source == .noFile)
        #expect(loaded.report.importResult?.outcome == .noSource)
        #expect(!setup.markerExists && !setup.stateExists)
    }

    @Test func aMarkerPreventsASecondImportEvenAfterTheStateFileWasDeleted() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        try setup.directory.write("legacy/state.json", try Fixtures.data("notebook/v2.json"))
        _ = try setup.file.load(importing: setup.source)
        try FileManager.default.removeItem(atPath: setup.directory.file("state/notebook.json"))
        let loaded = try setup.reopened().load(importing: setup.source)
        #expect(loaded.report.source == .noFile)
        #expect(loaded.report.importResult?.outcome == .markerWithoutState)
        #expect(loaded.report.importResult?.marker?.version == 2)
        #expect(loaded.model == (try NotebookSchema.make()).initialModel())
        #expect(!setup.stateExists, "starting empty writes nothing")
    }

    @Test(arguments: ["corrupt", "newer"])
    func aCorruptOrNewerLegacyFileIsNotImportedAndTheNextStartTriesAgain(kind: String) throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let legacy =
            kind == "corrupt"
            ? Data("{\"version\": 2, \"notes\": [".utf8) : try Fixtures.data("edge/newer-incompatible.json")
        try setup.directory.write("legacy/state.json", legacy)
        let loaded = try setup.file.load(importing: setup.source)
        #expect(loaded.report.source == .noFile)
        let result = try #require(loaded.report.importResult)
        #expect(result.outcome == .refused)
        #expect(result.reason?.contains(setup.source.sourcePath) == true, "the reason names the file")
        #expect(try setup.directory.read("legacy/state.json") == legacy)
        #expect(!setup.markerExists && !setup.stateExists)
        #expect(!FileManager.default.fileExists(atPath: setup.source.pendingPath))

        // Fixed in place (by the operator), the next start imports it.
        try setup.directory.write("legacy/state.json", try Fixtures.data("notebook/v3.json"))
        let again = try setup.reopened().load(importing: setup.source)
        #expect(again.report.importResult?.outcome == .imported)
        #expect(setup.markerExists && setup.stateExists)
    }

    @Test func anUnreadableLegacyFileIsRefusedNamingIt() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        try setup.directory.write("legacy/state.json", try Fixtures.data("notebook/v1.json"))
        // The lock file (its last owner's marker), the state file, the import marker, the source.
        setup.fileSystem.inject(.read, errno: EACCES, occurrence: 4)
        let loaded = try setup.file.load(importing: setup.source)
        let result = try #require(loaded.report.importResult)
        #expect(result.outcome == .refused)
        #expect(result.reason?.contains("EACCES") == true || result.reason?.contains("ermission") == true)
        #expect(!setup.markerExists && !setup.stateExists)
    }

    @Test func whenBothExistTheStateFileWins() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let legacy = try Fixtures.data("notebook/v1.json")
        try setup.directory.write("legacy/state.json", legacy)
        let state = try Fixtures.data("notebook/v4.json")
        try setup.directory.write("state/notebook.json", state)
        let loaded = try setup.file.load(importing: setup.source)
        #expect(loaded.report.source == .file)
        #expect(loaded.report.importResult?.outcome == .stateFileWins)
        #expect(try setup.directory.read("state/notebook.json") == state)
        #expect(try setup.directory.read("legacy/state.json") == legacy)
        #expect(!setup.markerExists, "no marker: nothing was imported")
    }

    @Test func killedBetweenTheStateFileAndTheMarkerTheNextStartWritesTheMarker() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        try setup.directory.write("legacy/state.json", try Fixtures.data("notebook/v1.json"))
        // The marker's temporary file cannot be created: the state file is written, the marker is not, as if the
        // process died between the two.
        setup.fileSystem.inject(.create, errno: EIO, occurrence: 3)
        let first = try setup.file.load(importing: setup.source)
        #expect(first.report.importResult?.outcome == .imported)
        #expect(first.report.importResult?.reason?.contains("marker") == true)
        #expect(setup.stateExists && !setup.markerExists)
        #expect(FileManager.default.fileExists(atPath: setup.source.pendingPath))
        let written = try setup.directory.read("state/notebook.json")

        let second = try setup.reopened().load(importing: setup.source)
        #expect(second.report.source == .file, "loaded from the state file, not imported again")
        #expect(second.report.importResult?.outcome == .markerCompleted)
        #expect(try setup.directory.read("state/notebook.json") == written)
        #expect(setup.markerExists)
        #expect(!FileManager.default.fileExists(atPath: setup.source.pendingPath))
        #expect(try setup.marker() == first.report.importResult?.marker)
    }

    @Test func anIntentWithoutAStateFileIsRetried() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        try setup.directory.write("legacy/state.json", try Fixtures.data("notebook/v2.json"))
        // The intent is durable, the state file's temporary file cannot be created: the load fails.
        setup.fileSystem.inject(.create, errno: ENOSPC, occurrence: 2)
        #expect(throws: StateStoreError.self) { try setup.file.load(importing: setup.source) }
        #expect(!setup.stateExists && !setup.markerExists)
        let loaded = try setup.reopened().load(importing: setup.source)
        #expect(loaded.report.importResult?.outcome == .imported)
        #expect(setup.stateExists && setup.markerExists)
        #expect(!FileManager.default.fileExists(atPath: setup.source.pendingPath))
    }

    @Test func aStagedCopyIsReadInsteadOfTheSourceAndRemoved() async throws {
        let setup = try Setup(staged: true)
        defer { setup.directory.remove() }
        let legacy = try Fixtures.data("notebook/v1.json")
        try setup.directory.write("state/.legacy-copy", legacy)
        let loaded = try setup.file.load(importing: setup.source)
        #expect(loaded.report.importResult?.outcome == .imported)
        #expect(try setup.marker().source == setup.source.sourcePath, "the marker names the operator's path")
        #expect(try setup.marker().sha256 == (try await Self.sha256Hex(legacy)))
        #expect(!FileManager.default.fileExists(atPath: setup.directory.file("state/.legacy-copy")))
    }

    @Test func leftoverTemporaryFilesOfTheMarkerAreSwept() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        try setup.directory.write("state/.imported-from-legacy.tmp-abc", "half")
        try setup.directory.write("state/.imported-from-legacy.pending.tmp-def", "half")
        let loaded = try setup.file.load(importing: setup.source)
        #expect(
            loaded.report.temporaryFilesRemoved == [
                ".imported-from-legacy.tmp-abc", ".imported-from-legacy.pending.tmp-def",
            ])
    }
}
