import Foundation
import StateStore
import StateStoreSample
import StateStoreTesting
import Testing

@Suite("Corrupt and newer files")
struct CorruptAndNewerFileTests {
    static let corruptContents: [(String, String)] = [
        ("not JSON", "this is not json"),
        ("truncated", #"{"version": 4, "minReaderVersion": 4, "notes": [{"id": "n1", "tit"#),
        ("empty", ""),
        ("wrong type", #"{"version": 4, "minReaderVersion": 4, "notes": [{"id": 1}], "author": {}}"#),
        ("version as text", #"{"version": "4", "notes": [], "author": {"givenName": "", "familyName": ""}}"#),
        ("not an object", "[1, 2, 3]"),
        (
            "failed validation",
            #"{"version":4,"minReaderVersion":4,"notes":[{"id":"a","title":"","kind":"text","pinned":false,"tags":[]}],"author":{"givenName":"","familyName":""}}"#
        ),
        ("version below the first", #"{"version": 0, "notes": [], "author": {"name": "", "age": ""}}"#),
    ]

    @Test(arguments: corruptContents)
    func aCorruptFileIsQuarantinedAndTheInitialStateUsed(name: String, content: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("notebook.json", content)
        let file = try notebookFile(directory)
        let loaded = try file.load()
        #expect(loaded.report.source == .quarantined, "\(name)")
        #expect(loaded.model.notes.isEmpty)
        let quarantine = try #require(loaded.report.quarantine)
        #expect(quarantine.policy == .quarantine)
        #expect(quarantine.movedTo == directory.file("notebook.json.corrupt-20261118T110640Z"))
        #expect(!quarantine.reason.isEmpty)
        #expect(try directory.read("notebook.json.corrupt-20261118T110640Z") == Data(content.utf8))
        #expect(!FileManager.default.fileExists(atPath: directory.file("notebook.json")))
        try file.save(loaded.model)
        #expect(try directory.read("notebook.json.corrupt-20261118T110640Z") == Data(content.utf8))
    }

    @Test(arguments: corruptContents)
    func theRefusePolicyThrowsAndLeavesTheFileUntouched(name: String, content: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("notebook.json", content)
        let file = try notebookFile(directory, configuration: StateFileConfiguration(corruptFilePolicy: .refuse))
        #expect {
            try file.load()
        } throws: { error in
            guard case .corrupt(let path, let reason) = error as? StateStoreError else { return false }
            return path == directory.file("notebook.json") && !reason.isEmpty
        }
        #expect(try directory.read("notebook.json") == Data(content.utf8), "\(name)")
        #expect(try directory.names() == [".notebook.json.lock", "notebook.json"])
        #expect(throws: StateStoreError.self) {
            try file.save(Notebook(notes: [], author: Author(givenName: "", familyName: "")))
        }
    }

    @Test func quarantineNeverReplacesAnEarlierOneAndKeepsTheNewest() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for round in 1...4 {
            try directory.write("notebook.json", "garbage \(round)")
            let file = try notebookFile(directory, configuration: StateFileConfiguration(quarantinedFilesKept: 3))
            let loaded = try file.load()
            #expect(loaded.report.source == .quarantined)
            file.unlock()
        }
        let kept = try directory.names().filter { $0.contains(".corrupt-") }
        #expect(
            kept == [
                "notebook.json.corrupt-20261118T110640Z-2", "notebook.json.corrupt-20261118T110640Z-3",
                "notebook.json.corrupt-20261118T110640Z-4",
            ])
        #expect(try directory.read("notebook.json.corrupt-20261118T110640Z-4") == Data("garbage 4".utf8))
        #expect(try directory.read("notebook.json.corrupt-20261118T110640Z-2") == Data("garbage 2".utf8))
    }

    @Test func aNewerIncompatibleFileIsRefusedNamingBothVersionsAndNeverWritten() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let original = try Fixtures.data("edge/newer-incompatible.json")
        try directory.write("notebook.json", original)
        let file = try notebookFile(directory)
        #expect(
            throws: StateStoreError.newerVersion(
                path: directory.file("notebook.json"), stored: 6, minReaderVersion: 6, current: 4)
        ) { try file.load() }
        #expect(throws: StateStoreError.self) {
            try file.save(Notebook(notes: [], author: Author(givenName: "", familyName: "")))
        }
        #expect(try directory.read("notebook.json") == original)
        #expect(try directory.names() == [".notebook.json.lock", "notebook.json"])
        let message = StateStoreError.newerVersion(path: "p", stored: 6, minReaderVersion: 6, current: 4).description
        #expect(message.contains("version 6") && message.contains("version 4"))
    }

    @Test func aNewerFileWithoutMinReaderVersionIsRefused() throws {
        let codec = StateCodec(schema: try NotebookSchema.make())
        let bytes = Data(#"{"version": 5, "notes": [], "author": {"givenName": "", "familyName": ""}}"#.utf8)
        #expect(throws: StateDecodingError.newerVersion(stored: 5, minReaderVersion: nil, current: 4)) {
            try codec.decode(bytes)
        }
    }

    @Test func aReadErrorIsNotCorruptionAndMovesNothing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("notebook.json", try Fixtures.data("notebook/v4.json"))
        let fileSystem = FaultInjectingFileSystem()
        fileSystem.inject(.read, errno: EIO, occurrence: 2)  // the lock file's marker, then the state file
        let file = try notebookFile(directory, fileSystem: fileSystem)
        #expect(throws: StateStoreError.self) { try file.load() }
        #expect(try directory.read("notebook.json") == (try Fixtures.data("notebook/v4.json")))
        #expect(try directory.names().filter { $0.contains("corrupt") }.isEmpty)
    }

    @Test func aMissingFileStartsFromTheInitialState() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let loaded = try notebookFile(directory).load()
        #expect(loaded.report.source == .noFile)
        #expect(loaded.report.storedVersion == nil)
        #expect(loaded.model.notes.isEmpty)
    }
}
