import Foundation
import StateStore
import StateStoreSample
import TestSupport
import Testing

/// A reversible test sealing: a 4-byte tag, then the bytes XOR a key byte. A wrong tag or key fails to open.
struct XORSealing: StateFileSealing {
    struct WrongKey: Error, CustomStringConvertible {
        var description: String { "sealed under another key" }
    }

    let key: UInt8

    func open(_ stored: Data) throws -> Data {
        guard stored.prefix(4) == Data("XOR\(key % 10)".utf8) else { throw WrongKey() }
        return Data(stored.dropFirst(4).map { $0 ^ key })
    }

    func seal(_ plaintext: Data) throws -> Data {
        Data("XOR\(key % 10)".utf8) + Data(plaintext.map { $0 ^ key })
    }
}

@Suite("A sealed state file")
struct SealingTests {
    func file(_ directory: TemporaryDirectory, key: UInt8) throws -> StateFile<Notebook> {
        StateFile(
            path: directory.file("notebook.json.sealed"), schema: try NotebookSchema.make(),
            sealing: XORSealing(key: key), now: fixedNow)
    }

    @Test func whatIsWrittenIsSealedAndReadsBackThroughMigrations() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("notebook.json.sealed", try XORSealing(key: 7).seal(try Fixtures.data("notebook/v1.json")))
        let first = try file(directory, key: 7)
        let loaded = try first.load()
        #expect(loaded.report.stepsApplied.count == 3)
        try first.save(loaded.model)
        first.unlock()
        let stored = try directory.read("notebook.json.sealed")
        #expect(stored.prefix(4) == Data("XOR7".utf8))
        #expect(try jsonObject(try XORSealing(key: 7).open(stored))["version"] as? Int == 4)
        #expect(try file(directory, key: 7).load().model == loaded.model)
        #expect(
            try XORSealing(key: 7).open(try directory.read("notebook.json.sealed.v1.bak"))
                == (try Fixtures.data("notebook/v1.json")), "the pre-migration backup keeps the sealed original")
    }

    @Test func aFileThatCannotBeOpenedIsNeverQuarantinedNorWritten() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let sealed = try XORSealing(key: 7).seal(try Fixtures.data("notebook/v4.json"))
        try directory.write("notebook.json.sealed", sealed)
        let wrong = try file(directory, key: 8)
        #expect(wrong.configuration.corruptFilePolicy == .quarantine)
        #expect {
            try wrong.load()
        } throws: { error in
            guard case .unsealFailed(let path, let reason) = error as? StateStoreError else { return false }
            return path.hasSuffix("notebook.json.sealed") && reason == "sealed under another key"
        }
        #expect(throws: StateStoreError.self) { try wrong.save(try NotebookSchema.make().initialModel()) }
        #expect(try directory.read("notebook.json.sealed") == sealed)
        #expect(try directory.names() == [".notebook.json.sealed.lock", "notebook.json.sealed"])
    }
}
