import Foundation
import StateStoreSample
import StateStoreTesting
import Testing

@testable import StateStore

/// The room the encoder makes up front (`StateFile.MutableState.lastJSONByteCount`) comes from a file whose state
/// is used or from the last encode, never from bytes that were quarantined.
@Suite("The encoder's capacity hint")
struct EncodeCapacityHintTests {
    static func hint(_ file: StateFile<Notebook>) -> Int {
        file.state.withLock { $0.lastJSONByteCount }
    }

    @Test func aLoadedFileSizesTheFirstSaveAndEachSaveTheNext() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bytes = try Fixtures.data("notebook/v4.json")
        try directory.write("notebook.json", String(decoding: bytes, as: UTF8.self))
        let file = try notebookFile(directory)
        let loaded = try file.load()
        #expect(loaded.report.source == .file)
        #expect(Self.hint(file) == bytes.count)
        try file.save(loaded.model)
        #expect(Self.hint(file) == (try directory.read("notebook.json")).count)
    }

    @Test func aQuarantinedFileLeavesNoHint() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("notebook.json", String(repeating: "not json ", count: 100_000))
        let file = try notebookFile(directory)
        let loaded = try file.load()
        #expect(loaded.report.source == .quarantined)
        #expect(Self.hint(file) == 0)
    }
}
