import Foundation
import StateStore
import StateStoreSample
import StateStoreTesting
import TestSupport
import Testing

/// Reverse steps with the sample model: version 4 written as version 3 for a rollback, losslessly; version 2 has
/// no way down; the file is written with a backup first and the durable write.
@Suite("Down migrations")
struct DownMigrationTests {
    static func codec() throws -> StateCodec<Notebook> { StateCodec(schema: try NotebookSchema.make()) }

    /// notebook/v4.json in a directory of its own, loaded through a fault-injecting file system.
    static func loadedVersion4() throws -> (
        TemporaryDirectory, Data, FaultInjectingFileSystem, StateFile<Notebook>, LoadedState<Notebook>
    ) {
        let directory = try TemporaryDirectory()
        let original = try Fixtures.data("notebook/v4.json")
        try directory.write("notebook.json", original)
        let fileSystem = FaultInjectingFileSystem()
        let file = try notebookFile(directory, fileSystem: fileSystem)
        return (directory, original, fileSystem, file, try file.load())
    }

    static func version4() throws -> Notebook {
        try codec().decode(try Fixtures.data("notebook/v4.json")).model
    }

    struct CountV1: Codable, Sendable { var count: Int }
    struct CountV2: Codable, Sendable, Equatable { var total: Int }

    @Test func theSchemaKnowsHowFarDownItGoes() throws {
        #expect(try NotebookSchema.make().lowestReachableVersion == 3)
        let oneWay = try StateSchema<CountV2>(
            currentVersion: 2,
            migrations: [
                MigrationStep(from: 1, CountV1.self, to: CountV2.self) { old, _ in CountV2(total: old.count) }
            ],
            initial: { CountV2(total: 0) })
        #expect(oneWay.lowestReachableVersion == 2, "a last step without a reverse stops the way down at once")
        let twoWay = try StateSchema<CountV2>(
            currentVersion: 2,
            migrations: [
                MigrationStep(
                    from: 1, CountV1.self, to: CountV2.self, convert: { old, _ in CountV2(total: old.count) },
                    revert: { new, _ in CountV1(count: new.total) })
            ],
            initial: { CountV2(total: 0) })
        #expect(twoWay.lowestReachableVersion == 1)
        let down = try StateCodec(schema: twoWay).encode(CountV2(total: 7), downTo: 1)
        #expect(String(decoding: down.data, as: UTF8.self) == #"{"count":7,"minReaderVersion":1,"version":1}"#)
        #expect(try StateCodec(schema: twoWay).decode(down.data).model == CountV2(total: 7))
    }

    /// The fixture: notebook/v4.json written as version 3. Its note of kind "sketch" (which version 3 cannot
    /// name) is written as 0 with `kindName` set aside; the author gets an empty `age`.
    @Test func version4WrittenAsVersion3MatchesItsFixtureAndComesBack() throws {
        let model = try Self.version4()
        let expected = try Fixtures.data("notebook-down/v3.json")
        try FixtureVerifier(schema: try NotebookSchema.make())
            .verifyDown(model, to: 3, expected: expected, name: "notebook-down/v3.json", prettyPrinted: true)
        let down = try Self.codec().encode(model, downTo: 3)
        #expect(down.version == 3 && down.stepsReverted == [3...4])
        #expect(down.fieldsSetAside == ["notes[].kindName": 1])
        #expect(down.fieldsDefaulted == ["author.age": 1])
        #expect(
            down.summary == "written as version 3 (4→3); 1 field(s) set aside in unknown fields; 1 field(s) defaulted")
        let object = try jsonObject(down.data)
        #expect(object["version"] as? Int == 3 && object["minReaderVersion"] as? Int == 3)
        #expect(object["revision"] == nil && object["lineage"] == nil, "an older release knows no revision")
        let up = try Self.codec().decode(down.data)
        #expect(up.model == model)
        #expect(up.fieldsTakenBack == ["notes[].kindName": 1])
        #expect(up.unknownKeysKept["notes[].kindName"] == nil, "taken back, it is no longer an unknown field")
    }

    @Test func everyFixtureGoesDownAndComesBackUnchanged() throws {
        // verifyDirectory runs verifyWayDown on each fixture.
        let results = try FixtureVerifier(schema: try NotebookSchema.make()).verifyDirectory(Fixtures.notebook)
        #expect(results.count == 4)
    }

    @Test func aVersionWithoutAWayDownIsRefusedSayingWhy() throws {
        let model = try Self.version4()
        #expect(throws: DowngradeError.unreachable(target: 2, lowest: 3, blockedAt: 3)) {
            try Self.codec().encode(model, downTo: 2)
        }
        let error = DowngradeError.unreachable(target: 2, lowest: 3, blockedAt: 3)
        #expect(error.description.contains("the step from version 2 to 3 has no way back"))
        #expect(error.description.contains("the lowest version this state can be written as is 3"))
        #expect(throws: DowngradeError.outOfRange(target: 5, first: 1, current: 4)) {
            try Self.codec().encode(model, downTo: 5)
        }
        #expect(throws: DowngradeError.outOfRange(target: 0, first: 1, current: 4)) {
            try Self.codec().encode(model, downTo: 0)
        }
        #expect(
            try Self.codec().encode(model, downTo: 4).data
                == (try Self.codec().encode(model, version: 4, minReaderVersion: 4)))
    }

    /// A set-aside value an older release (or a hand edit) left unreadable: the default stands, with a warning,
    /// and it is not kept as an unknown field under the declared key.
    @Test func aSetAsideValueThatDoesNotReadTakesTheDefaultWithAWarning() throws {
        let file = #"""
            {"version": 3, "author": {"givenName": "A", "familyName": "B", "age": ""},
             "notes": [{"id": "n1", "title": "T", "kind": 0, "pinned": false, "tags": [], "kindName": 42}]}
            """#
        let decoded = try Self.codec().decode(Data(file.utf8))
        #expect(decoded.model.notes[0].kind == .text)
        #expect(decoded.model.notes[0].unknownFields.isEmpty)
        #expect(decoded.unknownKeysKept.isEmpty)
        #expect(decoded.warnings.count == 1)
        #expect(decoded.warnings.first?.hasPrefix("notes[].kindName: the value kept by a rollback") == true)
    }

    /// A note whose kind a version 3 release changed after the rollback: the set-aside name is stale and dropped.
    @Test func aSetAsideValueIsNotTakenBackWhenTheOlderReleaseChangedTheField() throws {
        let file = #"""
            {"version": 3, "author": {"givenName": "A", "familyName": "B", "age": ""},
             "notes": [{"id": "n1", "title": "T", "kind": 1, "pinned": false, "tags": [], "kindName": "sketch"}]}
            """#
        let decoded = try Self.codec().decode(Data(file.utf8))
        #expect(decoded.model.notes[0].kind == .list)
        #expect(decoded.model.notes[0].unknownFields.isEmpty)
    }

    /// `StateFile.writeDown`: the version 4 file is kept as `notebook.json.v4.bak`, the version 3 bytes replace
    /// it, and the object refuses to write the current version over them until it loads again.
    @Test func writeDownKeepsABackupWritesDurablyAndRefusesLaterSaves() throws {
        let (directory, original, fileSystem, file, loaded) = try Self.loadedVersion4()
        defer { directory.remove() }
        let written = try file.writeDown(loaded.model, to: 3)
        #expect(written.backupPath == directory.file("notebook.json.v4.bak"))
        #expect(try directory.read("notebook.json.v4.bak") == original)
        #expect(try directory.read("notebook.json") == written.downgraded.data)
        #expect(try file.backups().map(\.name) == ["notebook.json.v4.bak"])
        let calls = fileSystem.calls
        let link = try #require(calls.firstIndex { $0.operation == .link })
        let sync = try #require(calls.lastIndex { $0.operation == .fsync })
        let rename = try #require(calls.lastIndex { $0.operation == .rename && $0.path == file.path })
        let directorySync = try #require(calls.lastIndex { $0.operation == .fsyncDirectory })
        #expect(link < sync && sync < rename && rename < directorySync, "backup, fsync, rename, directory fsync")
        #expect(throws: StateStoreError.self) { try file.save(loaded.model) }
        file.unlock()
        let again = try notebookFile(directory).load()
        #expect(again.report.storedVersion == 3 && again.model == loaded.model)
    }

    /// A write down to a version out of reach changes nothing: no backup, the file as it was.
    @Test func anUnreachableVersionWritesNothing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let original = try Fixtures.data("notebook/v4.json")
        try directory.write("notebook.json", original)
        let file = try notebookFile(directory)
        let loaded = try file.load()
        #expect {
            try file.writeDown(loaded.model, to: 1)
        } throws: { error in
            guard case .downgradeRefused(_, .unreachable(1, 3, 3)) = error as? StateStoreError else { return false }
            return "\(error)".hasSuffix("the file was not changed")
        }
        #expect(try directory.read("notebook.json") == original)
        #expect(try directory.names() == [".notebook.json.lock", "notebook.json"])
    }

    /// Every operation of the write down failing in turn: the state file holds either the version 4 bytes or the
    /// version 3 ones, never anything else, and when it holds version 3 the backup holds version 4.
    @Test(arguments: [
        FaultInjectingFileSystem.Operation.link, .create, .write, .fsync, .close, .rename, .fsyncDirectory,
    ])
    func aFailureAtAnyPointLeavesOneWholeVersion(operation: FaultInjectingFileSystem.Operation) throws {
        let (directory, original, fileSystem, file, loaded) = try Self.loadedVersion4()
        defer { directory.remove() }
        let down = try Self.codec().encode(loaded.model, downTo: 3).data
        fileSystem.inject(operation, errno: EIO)
        let failed: Bool
        do {
            try file.writeDown(loaded.model, to: 3)
            failed = false
        } catch {
            failed = true
        }
        let now = try directory.read("notebook.json")
        #expect(now == original || now == down, "after a failed \(operation): neither version")
        if now == down {
            #expect(try directory.read("notebook.json.v4.bak") == original)
        }
        file.unlock()
        if failed && now == original {
            #expect(try notebookFile(directory).load().report.storedVersion == 4)
        }
        #expect(try directory.names().filter { $0.contains(".tmp-") }.isEmpty || failed)
    }
}
