import Foundation
import StateStore
import StateStoreSample
import StateStoreTesting
import Testing

@Suite("saveSoon: durability requests skip the debounce")
struct SaveSoonTests {
    @Test func aRequestedSaveStartsWithoutWaitingForTheDebounce() async throws {
        let harness = try PersistenceHarness(
            configuration: PersistenceConfiguration(debounce: .seconds(60), maximumDelay: .seconds(600)))
        defer { harness.remove() }
        let revision = try harness.addNote(1)
        #expect(harness.state.status.durableRevision == 0, "the debounce has not passed on the manual clock")
        harness.state.saveSoon()
        try await harness.state.waitUntilDurable(revision)
        #expect(try harness.storedNoteIDs() == ["n1"])
    }

    @Test func aRequestDuringASaveIsServedRightAfterIt() async throws {
        let harness = try PersistenceHarness(
            configuration: PersistenceConfiguration(debounce: .seconds(60), maximumDelay: .seconds(600)))
        defer { harness.remove() }
        let gate = SaveGate(fileSystem: harness.fileSystem)
        try harness.addNote(1)
        harness.state.saveSoon()
        #expect(await gate.waitUntilEntered())
        let second = try harness.addNote(2)
        harness.state.saveSoon()
        gate.release()
        try await harness.state.waitUntilDurable(second)
        #expect(try harness.storedNoteIDs() == ["n1", "n2"])
    }

    @Test func aCleanStateIsNotSaved() {
        let harness = try? PersistenceHarness()
        defer { harness?.remove() }
        harness?.state.saveSoon()
        #expect(harness?.state.status.savesPerformed == 0)
        #expect(harness?.fileSystem.count(of: .create) == 0)
    }
}

@Suite("apply(validatesBeforeMutating:)")
struct InPlaceApplyTests {
    struct Refused: Error {}

    @Test func aValidatingChangeThatThrowsGetsNoRevisionAndChangesNothing() throws {
        let harness = try PersistenceHarness()
        defer { harness.remove() }
        try harness.addNote(1)
        #expect(throws: Refused.self) {
            try harness.state.apply(validatesBeforeMutating: true) { (_: inout Notebook) throws(Refused) -> Int in
                throw Refused()
            }
        }
        #expect(harness.state.status.revision == 1)
        let applied = try harness.state.apply(validatesBeforeMutating: true) {
            (notebook: inout Notebook) throws(Refused) -> Int in
            notebook.notes.removeAll()
            return notebook.notes.count
        }
        #expect(applied.revision == 2)
        #expect(harness.state.read { $0.notes.isEmpty })
    }
}
