import Foundation
import StateStoreSample
import StateStoreTesting
import Testing

@testable import StateStore

/// A change that appends a note without checking its id, as a faulty change could: the state then holds a repeated
/// id, which the notebook schema's repairs would rename at a load.
enum UncheckedNoteChange: StateChange, Equatable {
    case append(id: String, title: String)

    func apply(to notebook: inout Notebook) throws(NoteChangeError) {
        switch self {
        case .append(let id, let title): notebook.notes.append(Note(id: id, title: title, kind: .text, tags: []))
        }
    }
}

/// A read of the past gives the state as the store held it: a snapshot a save wrote, or one a start kept from a
/// load that repaired nothing, is decoded without the schema's repairs (``HistoryFileRecord/decodesAsHeld``); a
/// snapshot whose load repaired something is repaired again, as the start did.
@Suite struct HistoryRepairTests {
    /// A version 4 notebook stamped at revision 0, whose notes are `ids` in order.
    static func notebook(ids: [String]) -> Data {
        let notes = ids.enumerated().map { index, id in
            #"{"id":"\#(id)","kind":"text","pinned":false,"tags":[],"title":"note \#(index)"}"#
        }
        return Data(
            (#"{"author":{"familyName":"B","givenName":"A"},"lineage":"0123456789abcdef","minReaderVersion":4,"#
                + #""notes":[\#(notes.joined(separator: ","))],"revision":0,"version":4}"#).utf8)
    }

    func ids(_ notebook: Notebook) -> [String] { notebook.notes.map(\.id) }

    /// The manifest's snapshot records, by revision.
    func snapshots(_ state: PersistentState<Notebook>) throws -> [UInt64: HistoryFileRecord] {
        let history = try #require(state.history)
        let files = history.state.withLock { $0.manifest.files }
        return Dictionary(
            files.filter { $0.kind == .snapshot }.map { ($0.firstRevision, $0) }, uniquingKeysWith: { $1 })
    }

    @Test func aSnapshotASaveWroteIsReadAsTheStateHeldIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let scheduler = ManualPersistenceScheduler()
        let file = try notebookFile(directory)
        let state = try PersistentState(
            file: file, loaded: try file.load(), journaling: UncheckedNoteChange.self,
            journal: JournalConfiguration(maximumByteCount: 1024),
            history: HistoryConfiguration(keepSeconds: 3600, maximumByteCount: 1 << 20), scheduler: scheduler)
        try state.saveSynchronously()
        var expected: [UInt64: [String]] = [0: []]
        for index in 0..<40 {
            // Note 5 repeats note 4's id: the state holds it twice from then on.
            let change = UncheckedNoteChange.append(id: "n\(index == 5 ? 4 : index)", title: "note \(index)")
            let applied = try state.apply(change, returning: { _ in () })
            expected[applied.revision] = state.read { ids($0) }
            scheduler.advance(by: .milliseconds(5))
            if index % 3 == 0 { try state.flushSynchronously() }
        }
        // Saves after the repeated id kept snapshots of it, recorded as decoding as held.
        let all = try snapshots(state)
        let kept = all.filter { $0.key >= 6 }
        #expect(!kept.isEmpty, "\(all.keys.sorted())")
        #expect(kept.values.allSatisfy { $0.decodesAsHeld == true })
        // Repaired on read, every revision after such a snapshot would name the second n4 "n4-dup5".
        for revision in 0...state.status.revision {
            #expect(ids(try state.model(atRevision: revision)) == expected[revision], "revision \(revision)")
        }
    }

    @Test func aStartingSnapshotALoadRepairedIsRepairedAgainWhenRead() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let scheduler = ManualPersistenceScheduler()
        try directory.write("notebook.json", Self.notebook(ids: ["a", "b", "a"]))
        let state = try openJournaled(
            try notebookFile(directory), scheduler: scheduler, history: HistoryTests.history)
        let repaired = ["a", "b", "a-dup2"]
        #expect(state.read { ids($0) } == repaired)
        // The change names the id only the repair gave: replayed on the file's unrepaired notes, it would fail.
        let renamed = try state.apply(NoteChange.rename(id: "a-dup2", title: "renamed"), returning: { _ in () })
        _ = try state.apply(NoteChange.add(id: "c", title: "c"), returning: { _ in () })
        try state.flushSynchronously()
        let starting = try #require(try snapshots(state)[0])
        #expect(starting.decodesAsHeld == nil)
        #expect(ids(try state.model(atRevision: 0)) == repaired)
        let atRename = try state.model(atRevision: renamed.revision)
        #expect(atRename.notes.map(\.title) == ["note 0", "note 1", "renamed"])
    }

    @Test func aStartingSnapshotALoadLeftAsItWasDecodesAsHeld() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("notebook.json", Self.notebook(ids: ["a", "b"]))
        let state = try openJournaled(try notebookFile(directory), history: HistoryTests.history)
        _ = try state.apply(NoteChange.add(id: "c", title: "c"), returning: { _ in () })
        try state.flushSynchronously()
        #expect(try snapshots(state)[0]?.decodesAsHeld == true)
        #expect(ids(try state.model(atRevision: 0)) == ["a", "b"])
    }

    @Test func theRepairPolicyRepairsOnlyAfterAMigrationWhenAsked() throws {
        let codec = StateCodec(schema: try NotebookSchema.make())
        let current = Self.notebook(ids: ["a", "a"])
        #expect(ids(try codec.decode(current, salvaging: false, mappedAt: nil).model) == ["a", "a-dup1"])
        let held = try codec.decode(current, salvaging: false, mappedAt: nil, repairs: .whenMigrated)
        #expect(ids(held.model) == ["a", "a"] && held.repairs.isEmpty)
        // A version 1 file is migrated, then repaired whatever the policy.
        let versionOne = Data(
            (#"{"author":{"age":"36","name":"Ada Lovelace"},"notes":[{"id":"a","kind":0,"tags":[],"title":"x"},"#
                + #"{"id":"a","kind":0,"tags":[],"title":"y"}]}"#).utf8)
        let migrated = try codec.decode(versionOne, salvaging: false, mappedAt: nil, repairs: .whenMigrated)
        #expect(migrated.storedVersion == 1)
        #expect(ids(migrated.model) == ["a", "a-dup1"] && migrated.repairs.count == 1)
    }
}
