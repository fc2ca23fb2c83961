import Foundation
import Settings
import StateStore
import StateStoreTesting
import Testing

/// The guides' tests on the getting-started service's model (`settingsSchema()`, from Tests/Newcomer): the saving
/// with a manual clock (TestingMigrations) and the acknowledgement after the save (DurableAcknowledgements). Their
/// Swift blocks are text of this file (GuideCodeTests checks), indentation aside.
@Suite("The guides' tests on the settings service", .timeLimit(.minutes(1)))
struct SettingsServiceTests {
    @Test func aChangeIsSavedOnceTheDebounceHasPassed() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("settings.json")
        let scheduler = ManualPersistenceScheduler()
        let file = StateFile(path: path, schema: try settingsSchema())
        let state = PersistentState(file: file, loaded: try file.load(), scheduler: scheduler)
        let applied = try state.apply { $0.fontSize = 14 }
        scheduler.advance(by: .milliseconds(499))
        #expect(state.status.durableRevision == 0 && !state.status.isSaving)
        scheduler.advance(by: .milliseconds(1))  // the debounce is over: the save starts in the background
        try await state.waitUntilDurable(applied.revision)
        let reader = StateFile(
            path: path, schema: try settingsSchema(), configuration: StateFileConfiguration(locking: .none))
        #expect(try reader.load().model.fontSize == 14)
        try state.close()
    }

    @Test func aChangeAcknowledgedOnceDurable() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = StateFile(path: directory.file("settings.json"), schema: try settingsSchema())
        let state = PersistentState(file: file, loaded: try file.load())
        let applied = try state.apply { $0.fontSize += 1 }
        state.saveSoon()
        try await state.waitUntilDurable(applied.revision)
        #expect(state.status.durableRevision == applied.revision)
        try state.close()
    }
}
