import Foundation
import StateModel
import StateStoreSample
import StateStoreTesting
import TestSupport
import Testing

@testable import StateStore

/// A one-version model with a root field named as the store's default checksum key.
@StateModel
private struct ChecksumShelf: Sendable, Equatable {
    var books: [String] = []
    var contentChecksum: String = ""
    var unknownFields = UnknownFields()
}

/// Every file a `StateFile` writes ends with the checksum of its content, so that a load can tell a file that
/// changed outside the store since its last save (edited by hand) from one the store wrote: the load reports it
/// and goes on.
@Suite("Content checksum", .heavy)
struct ContentChecksumTests {
    /// A loaded notebook file holding the version 4 fixture (which records no checksum), in a new directory.
    static func fixtureFile(
        configuration: StateFileConfiguration = StateFileConfiguration()
    ) throws -> (TemporaryDirectory, StateFile<Notebook>, LoadedState<Notebook>) {
        let directory = try TemporaryDirectory()
        try directory.write("notebook.json", try Fixtures.data("notebook/v4.json"))
        let file = try notebookFile(directory, configuration: configuration)
        return (directory, file, try file.load())
    }

    /// The text of the checksum member at the end of `bytes` and the bytes before its `,`, as a reader that knows
    /// only the format finds them (a regular expression, not the store's scan).
    static func member(_ bytes: Data) throws -> (recorded: String, content: Data) {
        let text = String(decoding: bytes, as: UTF8.self)
        let match = try #require(text.firstMatch(of: /,\s*"contentChecksum"\s*:\s*"(crc32c:[0-9a-f]{8})"\s*}\s*$/))
        let content = Data(text[..<match.range.lowerBound].utf8)
        return (String(match.output.1), content)
    }

    /// `crc32c:` and the eight hex digits of the table CRC-32C of `bytes`.
    static func checksumText(_ bytes: Data) -> String {
        let hex = String(CRC32C.portableChecksum(Array(bytes)), radix: 16)
        return "crc32c:" + String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// `bytes` with the first `old` replaced by `new`, as a person editing the file would.
    static func edited(_ bytes: Data, _ old: String, _ new: String) throws -> Data {
        let text = String(decoding: bytes, as: UTF8.self)
        let range = try #require(text.range(of: old))
        return Data(text.replacingCharacters(in: range, with: new).utf8)
    }

    @Test func aSavedFileEndsWithTheChecksumOfItsContentAndLoadsWithAMatch() throws {
        let (directory, file, loaded) = try Self.fixtureFile()
        defer { directory.remove() }
        #expect(loaded.report.contentChecksum == .absent, "the fixture was written before the checksum")
        try file.save(loaded.model)
        let bytes = try directory.read("notebook.json")
        let (recorded, content) = try Self.member(bytes)
        #expect(recorded == Self.checksumText(content), "the CRC-32C of every byte before the member's comma")
        #expect(
            String(decoding: content, as: UTF8.self).hasSuffix(#""version":4"#),
            "the last member, after the sorted ones")
        #expect(try jsonObject(bytes)["contentChecksum"] as? String == recorded, "valid JSON, one member at the root")
        #expect(ContentChecksum.verify(bytes) == .matches)
        #expect(ContentChecksum.verify(Array(bytes)) == .matches)
        #expect(ContentChecksum.verify(bytes + Data("\n".utf8)) == .matches, "an editor's newline at the end")
        file.unlock()

        let reloaded = try notebookFile(directory).load()
        #expect(reloaded.report.contentChecksum == .matches)
        #expect(!reloaded.report.changedOutsideStore)
        #expect(reloaded.model == loaded.model)
        #expect(reloaded.report.unknownKeysKept.isEmpty, "the member is the store's, not an unknown field")
        #expect(reloaded.report.unknownKeysDropped.isEmpty && reloaded.report.warnings.isEmpty)
        #expect(reloaded.report.directReadFallback == nil, "read directly, the version found from the end")
        #expect(!reloaded.report.description.contains("changed outside"))
    }

    @Test func aByteChangedByHandIsAMismatchTheLoadGoesOnAndTheNextSaveMatches() throws {
        let (directory, file, loaded) = try Self.fixtureFile()
        defer { directory.remove() }
        try file.save(loaded.model)
        file.unlock()
        let saved = try directory.read("notebook.json")
        let (recorded, _) = try Self.member(saved)
        let edited = try Self.edited(saved, "Checklist", "Checklisu")
        try directory.write("notebook.json", edited)
        let computed = Self.checksumText(try Self.member(edited).content)
        #expect(computed != recorded)
        #expect(ContentChecksum.verify(edited) == .mismatch(recorded: recorded, computed: computed))

        let second = try notebookFile(directory)
        let reloaded = try second.load()
        #expect(reloaded.report.contentChecksum == .mismatch(recorded: recorded, computed: computed))
        #expect(reloaded.report.changedOutsideStore)
        #expect(reloaded.report.source == .file, "loaded as it is: no salvage, no quarantine")
        #expect(reloaded.report.quarantine == nil && reloaded.report.salvage == nil)
        #expect(reloaded.model.notes.map(\.title).contains("Checklisu"), "the edit is the state")
        #expect(
            reloaded.report.description.contains(
                "changed outside the store since its last save: content checksum \(computed), \(recorded) recorded"))
        #expect(try directory.names() == [".notebook.json.lock", "notebook.json"], "nothing set aside")

        try second.save(reloaded.model)
        let rewritten = try directory.read("notebook.json")
        #expect(ContentChecksum.verify(rewritten) == .matches, "a fresh checksum")
        #expect(String(decoding: rewritten, as: UTF8.self).contains("Checklisu"), "the save kept the edit")
        second.unlock()
        #expect(try notebookFile(directory).load().report.contentChecksum == .matches)
    }

    @Test func aFileWithoutTheMemberIsAbsentAndLoadsAsBefore() throws {
        let fixture = try Fixtures.data("notebook/v4.json")
        #expect(ContentChecksum.verify(fixture) == .absent)
        #expect(ContentChecksum.verify(Data()) == .absent)
        #expect(ContentChecksum.verify(Data("not json".utf8)) == .absent)
        #expect(ContentChecksum.verify(Data(#"{"contentChecksum":"crc32c:00000000"}"#.utf8)) == .absent)
        #expect(ContentChecksum.verify(Data(#"{"a":1,"contentChecksum":7}"#.utf8)) == .absent)
        #expect(ContentChecksum.verify(Data(#"{"a":"x\",\"contentChecksum\":\"crc32c:00000000"}"#.utf8)) == .absent)
        let (directory, _, loaded) = try Self.fixtureFile()
        defer { directory.remove() }
        #expect(loaded.report.contentChecksum == .absent)
        #expect(!loaded.report.changedOutsideStore)
        #expect(loaded.report.warnings.isEmpty && loaded.report.unknownKeysKept.isEmpty)
        #expect(!loaded.report.description.contains("changed outside"))
    }

    @Test func aRecordedValueThatIsNotAChecksumIsAMismatch() throws {
        let content = #"{"a":1"#
        let bytes = Data((content + #","contentChecksum":"sha256:1234"}"#).utf8)
        #expect(
            ContentChecksum.verify(bytes)
                == .mismatch(recorded: "sha256:1234", computed: Self.checksumText(Data(content.utf8))))
        let upper = Self.checksumText(Data(content.utf8)).uppercased().replacingOccurrences(
            of: "CRC32C:", with: "crc32c:")
        #expect(ContentChecksum.verify(Data((content + #","contentChecksum":"\#(upper)"}"#).utf8)) == .matches)
        #expect(ContentChecksum.verify(Data(#"{"a":1,"other":"crc32c:00000000"}"#.utf8)) == .absent)
        #expect(ContentChecksum.verify(Data(#"{"a":1,"other":"crc32c:00000000"}"#.utf8), key: "other") != .absent)
    }

    @Test func aStreamedSaveInPiecesRecordsTheChecksumOfEveryPiece() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("notebook.json", try Fixtures.data("notebook/v4.json"))
        let fileSystem = FaultInjectingFileSystem()
        let file = try notebookFile(directory, fileSystem: fileSystem)
        var notebook = try file.load().model
        let notes = notebook.notes
        notebook.notes = (0..<2_000).flatMap { round in
            notes.map { note in
                var note = note
                note.id = "\(note.id)-\(round)"
                return note
            }
        }
        file.savePieceSize = 4_096
        let writes = fileSystem.count(of: .write)
        let written = try file.save(notebook, revision: 3)
        let bytes = try directory.read("notebook.json")
        #expect(written == bytes.count)
        #expect(fileSystem.count(of: .write) - writes > bytes.count / 8_192, "written in many pieces")
        #expect(bytes == (try file.encode(notebook)), "the bytes of the whole encode, checksum included")
        #expect(ContentChecksum.verify(bytes) == .matches)
        let (recorded, content) = try Self.member(bytes)
        #expect(recorded == Self.checksumText(content))

        // One piece: one write, the member in it.
        file.savePieceSize = 1 << 24
        let before = fileSystem.count(of: .write)
        try file.save(notebook, revision: 4)
        #expect(fileSystem.count(of: .write) - before == 1)
        #expect(ContentChecksum.verify(try directory.read("notebook.json")) == .matches)
        file.unlock()
        let reloaded = try notebookFile(directory).load()
        #expect(reloaded.report.contentChecksum == .matches && reloaded.model == notebook)
    }

    @Test func aMappedLargeFileIsCheckedAsItIsRead() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("notebook.json", try Fixtures.data("notebook/v4.json"))
        let file = try notebookFile(directory)
        var notebook = try file.load().model
        let notes = notebook.notes
        notebook.notes = (0..<40_000).map { index in
            var note = notes[index % notes.count]
            note.id = "n\(index)"
            note.title = "note \(index) " + String(repeating: "x", count: 100)
            return note
        }
        try file.save(notebook)
        file.unlock()
        let bytes = try directory.read("notebook.json")
        #expect(bytes.count > PageRelease.interval, "mapped, and hashed in more than one part")
        #expect(try notebookFile(directory).load().report.contentChecksum == .matches)
        try directory.write("notebook.json", try Self.edited(bytes, "note 39999 ", "note 39998 "))
        let edited = try notebookFile(directory).load()
        #expect(edited.report.changedOutsideStore && edited.model.notes.count == 40_000)
    }

    @Test func theJournalsSnapshotsRecordTheChecksum() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try notebookFile(directory)
        let state = try openJournaled(file)
        for index in 1...3 { try state.apply(NoteChange.add(id: "n\(index)", title: "note \(index)")) }
        try state.flushSynchronously()
        let snapshot = try directory.read("notebook.json")
        #expect(ContentChecksum.verify(snapshot) == .matches)
        try state.apply(NoteChange.rename(id: "n2", title: "second"))
        try state.close()
        file.unlock()
        #expect(ContentChecksum.verify(try directory.read("notebook.json")) == .matches, "the flush on close")

        // Edited between two runs: the start replays nothing, reports the edit and serves it.
        let edited = try Self.edited(try directory.read("notebook.json"), "second", "secOnd")
        try directory.write("notebook.json", edited)
        let reopenedFile = try notebookFile(directory)
        let loaded = try reopenedFile.load()
        #expect(loaded.report.changedOutsideStore)
        let reopened = try PersistentState(
            file: reopenedFile, loaded: loaded, journaling: NoteChange.self, journal: JournalConfiguration(),
            history: .off, scheduler: ManualPersistenceScheduler())
        #expect(reopened.read { $0.notes.map(\.title) } == ["note 1", "secOnd", "note 3"])
        try reopened.apply(NoteChange.add(id: "n4", title: "fourth"))
        try reopened.flushSynchronously()
        #expect(ContentChecksum.verify(try directory.read("notebook.json")) == .matches)
        try reopened.close()
    }

    @Test func aDamagedFileWithTheMemberIsSalvagedAndReportsTheEdit() throws {
        let (directory, file, loaded) = try Self.fixtureFile(configuration: SalvageTests.salvage)
        defer { directory.remove() }
        try file.save(loaded.model)
        file.unlock()
        let saved = try directory.read("notebook.json")
        let damaged = try Self.edited(saved, #""title":"Drawing""#, #""title":["Drawing"]"#)
        try directory.write("notebook.json", damaged)
        let second = try notebookFile(directory, configuration: SalvageTests.salvage)
        let salvaged = try second.load()
        #expect(salvaged.report.source == .salvaged)
        #expect(salvaged.report.salvage?.droppedRecords.map(\.path) == ["notes[1]"])
        #expect(salvaged.model.notes.map(\.id) == ["n1"])
        #expect(salvaged.report.unknownKeysKept.isEmpty, "the member is not an unknown field of a salvage either")
        #expect(salvaged.report.salvage?.details.allSatisfy { !$0.contains("contentChecksum") } == true)
        #expect(salvaged.report.changedOutsideStore)
        try second.save(salvaged.model)
        let rewritten = try directory.read("notebook.json")
        #expect(ContentChecksum.verify(rewritten) == .matches)
        #expect(rewritten.ranges(of: Data("contentChecksum".utf8)).count == 1)
    }

    @Test func theStrictDecoderTheCodablePathAndTheDowngradeReadAFileWithTheMember() throws {
        let (directory, file, loaded) = try Self.fixtureFile()
        defer { directory.remove() }
        try file.save(loaded.model)
        let bytes = try directory.read("notebook.json")

        let strict = try file.codec.decode(bytes)
        #expect(strict.model == loaded.model && strict.unknownKeysKept.isEmpty && strict.warnings.isEmpty)
        #expect(strict.directReadFallback == nil)
        var codable = file.codec
        codable.readsDirectly = false
        let throughCodable = try codable.decode(bytes)
        #expect(throughCodable.model == loaded.model)
        #expect(throughCodable.unknownKeysKept.isEmpty && throughCodable.unknownKeysDropped.isEmpty)
        #expect(throughCodable.warnings.isEmpty)
        #expect(try file.codec.encode(loaded.model) == file.codec.encode(strict.model), "the codec leaves it out")
        #expect(ContentChecksum.verify(try file.codec.encode(loaded.model)) == .absent)

        // Written down for an older release: no member (that release would take it for a field of its model).
        let down = try file.writeDown(loaded.model, to: 3)
        let downBytes = try directory.read("notebook.json")
        #expect(down.downgraded.data == downBytes)
        #expect(ContentChecksum.verify(downBytes) == .absent)
        file.unlock()
        let migrated = try notebookFile(directory).load()
        #expect(migrated.report.stepsApplied == [3...4] && migrated.report.contentChecksum == .absent)
        #expect(migrated.model == loaded.model)
    }

    @Test func aMemberAnOlderReleaseKeptAmongTheSortedKeysIsIgnoredAndNotWrittenTwice() throws {
        // An older release keeps the member as an unknown root field and writes it back in key order.
        let text =
            #"{"author":{"familyName":"Hamilton","givenName":"Margaret"},"contentChecksum":"crc32c:0badf00d","#
            + #""minReaderVersion":4,"notes":[],"version":4}"#
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("notebook.json", text)
        let file = try notebookFile(directory)
        let loaded = try file.load()
        #expect(loaded.report.contentChecksum == .absent, "not the last member: no checksum to check")
        #expect(loaded.report.unknownKeysKept.isEmpty && loaded.report.warnings.isEmpty)
        try file.save(loaded.model)
        let bytes = try directory.read("notebook.json")
        #expect(bytes.ranges(of: Data("contentChecksum".utf8)).count == 1)
        #expect(ContentChecksum.verify(bytes) == .matches)
    }

    @Test func aPrettyPrintedFileAndAPlainCodableModelCarryAMatchingChecksum() throws {
        let (directory, file, loaded) = try Self.fixtureFile(
            configuration: StateFileConfiguration(prettyPrinted: true))
        defer { directory.remove() }
        try file.save(loaded.model)
        let pretty = String(decoding: try directory.read("notebook.json"), as: UTF8.self)
        #expect(pretty.contains("\"version\" : 4,\n  \"contentChecksum\" : \"crc32c:"), "\(pretty)")
        #expect(pretty.hasSuffix("\"\n}"))
        #expect(ContentChecksum.verify(Data(pretty.utf8)) == .matches)
        file.unlock()
        let reloaded = try notebookFile(directory, configuration: StateFileConfiguration(prettyPrinted: true)).load()
        #expect(reloaded.report.contentChecksum == .matches && reloaded.model == loaded.model)

        struct Plain: Codable, Sendable, Equatable { var names: [String] }
        let plainFile = StateFile(
            path: directory.file("plain.json"),
            schema: try StateSchema<Plain>(currentVersion: 1, initial: { Plain(names: []) }))
        _ = try plainFile.load()
        try plainFile.save(Plain(names: ["a", "b"]))
        plainFile.unlock()
        let plainBytes = try directory.read("plain.json")
        #expect(ContentChecksum.verify(plainBytes) == .matches)
        let plain = try StateFile(
            path: directory.file("plain.json"),
            schema: try StateSchema<Plain>(currentVersion: 1, initial: { Plain(names: []) })
        ).load()
        #expect(plain.model == Plain(names: ["a", "b"]) && plain.report.contentChecksum == .matches)
        #expect(plain.report.unknownKeysDropped.isEmpty && plain.report.warnings.isEmpty, "not a dropped field")
    }

    @Test func aSchemaNamesAnotherKey() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // The model has a root field called `contentChecksum`: the store's key takes another name.
        let schema = try StateSchema<ChecksumShelf>(
            currentVersion: 1, contentChecksumKey: "shelfChecksum", initial: { ChecksumShelf() })
        let file = StateFile(path: directory.file("shelf.json"), schema: schema)
        _ = try file.load()
        let shelf = ChecksumShelf(books: ["Dune"], contentChecksum: "mine")
        try file.save(shelf)
        file.unlock()
        let bytes = try directory.read("shelf.json")
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix(#"{"books":["Dune"],"contentChecksum":"mine","#))
        #expect(ContentChecksum.verify(bytes) == .absent)
        #expect(ContentChecksum.verify(bytes, key: "shelfChecksum") == .matches)
        let reloaded = try StateFile(path: directory.file("shelf.json"), schema: schema).load()
        #expect(reloaded.report.contentChecksum == .matches && reloaded.report.unknownKeysKept.isEmpty)
        #expect(reloaded.model == shelf && reloaded.report.directReadFallback == nil)
    }

    @Test func aSealedFileRecordsTheChecksumInsideTheSealedBytes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("notebook.json.sealed")
        let file = StateFile(path: path, schema: try NotebookSchema.make(), sealing: XORSealing(key: 7))
        let model = try file.load().model
        try file.save(model)
        file.unlock()
        let sealed = try directory.read("notebook.json.sealed")
        #expect(ContentChecksum.verify(sealed) == .absent)
        #expect(ContentChecksum.verify(try XORSealing(key: 7).open(sealed)) == .matches)
        let reloaded = try StateFile(path: path, schema: try NotebookSchema.make(), sealing: XORSealing(key: 7)).load()
        #expect(reloaded.report.contentChecksum == .matches)
    }
}
