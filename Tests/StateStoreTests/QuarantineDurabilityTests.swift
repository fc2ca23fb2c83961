import Foundation
import StateStore
import StateStoreSample
import StateStoreTesting
import Testing

@Suite("Quarantine: the order of its calls and its failures")
struct QuarantineDurabilityTests {
    static let corrupt = Data("this is not json".utf8)

    @Test func theCopyIsDurableBeforeTheOriginalNameGoesAndTheRemovalIsSyncedToo() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("notebook.json", Self.corrupt)
        let fileSystem = FaultInjectingFileSystem()
        let loaded = try notebookFile(directory, fileSystem: fileSystem).load()
        let movedTo = try #require(loaded.report.quarantine?.movedTo)
        let calls = fileSystem.calls
        let link = try #require(calls.firstIndex { $0.operation == .link && $0.path == movedTo })
        let unlink = try #require(
            calls.firstIndex { $0.operation == .unlink && $0.path == directory.file("notebook.json") })
        let syncs = calls.indices.filter { calls[$0].operation == .fsyncDirectory && calls[$0].path == directory.path }
        #expect(syncs.contains { link < $0 && $0 < unlink }, "the directory is synced between the link and the unlink")
        #expect(syncs.contains { unlink < $0 }, "the directory is synced after the unlink")
        #expect(try directory.read("notebook.json.corrupt-20261118T110640Z") == Self.corrupt)
    }

    /// The call that fails, which of its calls, and the operation the error names.
    static let failures: [(operation: FaultInjectingFileSystem.Operation, occurrence: Int, name: String)] = [
        (.link, 1, "link"),
        (.fsyncDirectory, 1, "fsync"),
        (.unlink, 1, "unlink"),
        (.fsyncDirectory, 2, "fsync"),
    ]

    @Test(arguments: failures)
    func aFailedQuarantineFailsTheLoadAndLeavesTheFileAsItWas(
        operation: FaultInjectingFileSystem.Operation, occurrence: Int, name: String
    ) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("notebook.json", Self.corrupt)
        let fileSystem = FaultInjectingFileSystem()
        fileSystem.inject(operation, errno: EIO, occurrence: occurrence)
        let file = try notebookFile(directory, fileSystem: fileSystem)
        do {
            _ = try file.load()
            Issue.record("the load succeeded")
        } catch {
            guard case .quarantineFailed(let path, let reason, let underlying) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path == directory.file("notebook.json"))
            #expect(!reason.isEmpty)
            #expect(underlying.operation == name)
            #expect(underlying.errno == EIO)
        }
        #expect(fileSystem.calls.contains { $0.operation == operation && $0.failed })
        #expect(try directory.read("notebook.json") == Self.corrupt)
        #expect(try directory.names() == [".notebook.json.lock", "notebook.json"], "no copy is left behind")
        #expect(throws: StateStoreError.self) {
            try file.save(Notebook(notes: [], author: Author(givenName: "", familyName: "")))
        }
        file.unlock()
        let retried = try notebookFile(directory).load()
        #expect(retried.report.quarantine?.movedTo == directory.file("notebook.json.corrupt-20261118T110640Z"))
    }
}
