import Foundation
import StateModel
import StateStoreSample
import StateStoreTesting
import Testing

@testable import StateStore

/// A number that refuses to be written directly when it is `refused`; `Encodable` writes it as any number.
private struct Flaky: Codable, Sendable, Equatable, StateDirectDecodable, StateDirectEncodable {
    static let refused = 150
    var number: Int

    init(_ number: Int) { self.number = number }
    init(from decoder: any Decoder) throws { number = try Int(from: decoder) }
    init(stateReader reader: inout StateDirectReader) throws { number = try reader.readInteger() }
    func encode(to encoder: any Encoder) throws { try number.encode(to: encoder) }
    func write(stateWriter writer: inout StateDirectWriter) throws {
        if number == Self.refused { throw writer.refusal("refused on purpose") }
        writer.writeInteger(number)
    }
}

/// A one-version model holding an array the direct writer gives up on part way.
@StateModel
private struct Numbers: Sendable, Equatable {
    var items: [Flaky] = []
    var unknownFields = UnknownFields()
}

/// A save streams a model that writes itself into the temporary file in pieces, so that it never holds the whole
/// document in memory; the bytes are those of an encode, and any failure leaves the old file.
@Suite("Saves written in pieces")
struct StreamedSaveTests {
    /// A loaded notebook file holding the version 4 sample fixture, and that fixture's notes repeated a hundred
    /// times under new ids, to save.
    struct Setup {
        let directory: TemporaryDirectory
        let fileSystem = FaultInjectingFileSystem()
        let file: StateFile<Notebook>
        let notebook: Notebook
        /// The fixture's bytes, as the file holds them before a save.
        let original: Data

        init() throws {
            directory = try TemporaryDirectory()
            original = try Fixtures.data("notebook/v4.json")
            try directory.write("notebook.json", original)
            file = try notebookFile(directory, fileSystem: fileSystem)
            var notebook = try file.load().model
            let notes = notebook.notes
            notebook.notes = (0..<100).flatMap { round in
                notes.map { note in
                    var note = note
                    note.id = "\(note.id)-\(round)"
                    return note
                }
            }
            self.notebook = notebook
        }
    }

    @Test func aSaveInSmallPiecesWritesTheBytesOfAnEncode() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let (directory, fileSystem, file, notebook) = (setup.directory, setup.fileSystem, setup.file, setup.notebook)
        file.savePieceSize = 256
        let writes = fileSystem.count(of: .write)
        let written = try file.save(notebook, revision: 7)
        let bytes = try directory.read("notebook.json")
        #expect(written == bytes.count)
        #expect(bytes == (try file.encode(notebook)), "the same bytes, revision 7 and the lineage included")
        #expect(fileSystem.count(of: .write) - writes >= bytes.count / 512, "written in many pieces")
        #expect(try file.codec.decode(bytes).model == notebook)
        #expect(try directory.names() == [".notebook.json.lock", "notebook.json"])
    }

    @Test func aSaveInOnePieceWritesOnce() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let (directory, fileSystem, file, notebook) = (setup.directory, setup.fileSystem, setup.file, setup.notebook)
        let writes = fileSystem.count(of: .write)
        try file.save(notebook, revision: 8)
        #expect(fileSystem.count(of: .write) - writes == 1, "a mebibyte's piece holds the whole file")
        #expect(try directory.read("notebook.json") == (try file.encode(notebook)))
    }

    @Test func aDirectWriterThatGivesUpPartWayLeavesNoPieceAndTheEncodeIsWritten() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fileSystem = FaultInjectingFileSystem()
        let file = StateFile(
            path: directory.file("numbers.json"),
            schema: try StateSchema<Numbers>(currentVersion: 1, initial: { Numbers() }), fileSystem: fileSystem)
        _ = try file.load()
        file.savePieceSize = 16
        let model = Numbers(items: (0..<300).map(Flaky.init))
        let (writes, unlinks) = (fileSystem.count(of: .write), fileSystem.count(of: .unlink))
        let written = try file.save(model, revision: 1)
        let bytes = try directory.read("numbers.json")
        #expect(written == bytes.count)
        #expect(fileSystem.count(of: .write) - writes > 20, "pieces went to a temporary file first")
        #expect(fileSystem.count(of: .unlink) - unlinks == 1, "the temporary file of the pieces was removed")
        #expect(try file.codec.decode(bytes).model == model)
        #expect(bytes == (try file.encode(model)), "the bytes of the Encodable path")
        #expect(try directory.names() == [".numbers.json.lock", "numbers.json"])
    }

    @Test func aModelThatDoesNotWriteItselfIsEncodedWholeWithOneTemporaryFile() throws {
        struct Plain: Codable, Sendable, Equatable { var names: [String] }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fileSystem = FaultInjectingFileSystem()
        let file = StateFile(
            path: directory.file("plain.json"),
            schema: try StateSchema<Plain>(currentVersion: 1, initial: { Plain(names: []) }), fileSystem: fileSystem)
        _ = try file.load()
        file.savePieceSize = 16
        let model = Plain(names: (0..<100).map { "name \($0)" })
        let (creates, writes) = (fileSystem.count(of: .create), fileSystem.count(of: .write))
        try file.save(model, revision: 1)
        #expect(fileSystem.count(of: .create) - creates == 1, "no temporary file for pieces first")
        #expect(fileSystem.count(of: .write) - writes == 1, "the whole encode in one write")
        #expect(try file.codec.decode(try directory.read("plain.json")).model == model)
    }

    @Test func aFailedPieceLeavesTheOldFileAndNoTemporaryFile() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let (directory, fileSystem, file, notebook) = (setup.directory, setup.fileSystem, setup.file, setup.notebook)
        file.savePieceSize = 256
        fileSystem.inject(.write, errno: ENOSPC, occurrence: 3)
        #expect {
            try file.save(notebook, revision: 9)
        } throws: { error in
            guard case .writeFailed(let failure) = error as? StateStoreError else { return false }
            return failure.stage == .write && failure.underlying.errno == ENOSPC
        }
        #expect(try directory.read("notebook.json") == setup.original)
        #expect(try directory.names() == [".notebook.json.lock", "notebook.json"])
    }
}
