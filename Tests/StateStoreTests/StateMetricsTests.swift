import CoreMetrics
import Foundation
import MetricsTestKit
import StateStore
import StateStoreSample
import StateStoreTesting
import Testing

/// StateStore reports its own figures through swift-metrics (issue 44): to the factory a program passes in, under
/// its prefix, so that any backend gets them.
@Suite("state metrics")
struct StateMetricsTests {
    @Test func loadsChangesJournalSyncsAndSavesAreReported() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let metrics = TestMetrics()
        var configuration = StateFileConfiguration()
        configuration.metrics = StateMetrics(prefix: "notes", factory: metrics)
        let file = try notebookFile(directory, configuration: configuration)
        let state = try PersistentState(
            file: file, loaded: try file.load(), journaling: NoteChange.self, scheduler: ManualPersistenceScheduler())
        #expect(try metrics.expectGauge("notes_load_info", [("source", "none")]).lastValue == 1)
        #expect(try metrics.expectGauge("notes_load_migration_steps").lastValue == 0)
        #expect(try metrics.expectCounter("notes_crash_loop_guard_trips_total").totalValue == 0)

        for index in 1...3 { try state.apply(NoteChange.add(id: "n\(index)", title: "t")) }
        #expect(try metrics.expectCounter("notes_applied_changes_total").totalValue == 3)
        #expect(try metrics.expectGauge("notes_revision").lastValue == 3)
        #expect(try metrics.expectCounter("notes_journal_appends_total").totalValue == 3)

        // One group sync makes the three durable at once.
        try await state.waitUntilDurable(3, timeout: .seconds(10))
        #expect(try metrics.expectRecorder("notes_journal_sync_group_size").values == [3])
        #expect(try metrics.expectTimer("notes_journal_sync_duration_seconds").values.count == 1)
        #expect(try metrics.expectGauge("notes_durable_revision").lastValue == 3)
        #expect((try metrics.expectGauge("notes_journal_bytes").lastValue ?? 0) > 0)

        try state.flushSynchronously()
        #expect(try metrics.expectCounter("notes_saves_total").totalValue == 1)
        #expect(try metrics.expectTimer("notes_save_duration_seconds").values.count == 1)
        #expect(try metrics.expectGauge("notes_saved_revision").lastValue == 3)
        let size = try #require(try metrics.expectGauge("notes_state_file_bytes").lastValue)
        #expect(Int(size) == state.status.lastSaveByteCount)
        try state.close()
    }

    @Test func saveFailuresAreCountedByErrno() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let metrics = TestMetrics()
        let fileSystem = FaultInjectingFileSystem()
        var configuration = StateFileConfiguration()
        configuration.metrics = StateMetrics(prefix: "notes", factory: metrics)
        let file = try notebookFile(directory, configuration: configuration, fileSystem: fileSystem)
        let state = PersistentState(file: file, loaded: try file.load(), scheduler: ManualPersistenceScheduler())
        try state.apply { $0.notes.append(Note(id: "n1", title: "t", kind: .text, tags: [])) }
        fileSystem.inject(.write, errno: ENOSPC)
        #expect(throws: PersistenceError.self) { try state.flushSynchronously() }
        fileSystem.inject(.fsync, errno: EIO)
        #expect(throws: PersistenceError.self) { try state.flushSynchronously() }
        #expect(try metrics.expectCounter("notes_save_failures_total").totalValue == 2)
        #expect(try metrics.expectCounter("notes_save_failures_by_errno_total", [("errno", "ENOSPC")]).totalValue == 1)
        #expect(try metrics.expectCounter("notes_save_failures_by_errno_total", [("errno", "EIO")]).totalValue == 1)
        try state.flushSynchronously()
        #expect(try metrics.expectCounter("notes_saves_total").totalValue == 1)
        try state.close()
    }

    @Test func aSalvagedLoadIsReported() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let metrics = TestMetrics()
        var configuration = StateFileConfiguration(corruptFilePolicy: .salvage)
        configuration.metrics = StateMetrics(prefix: "notes", factory: metrics)
        let file = try notebookFile(directory, configuration: configuration)
        // A title that is a number: the record is dropped by the salvage, the rest kept.
        let text = SalvageTests.notebook([SalvageTests.note(0), SalvageTests.note(1, ["title": "7"])])
        try Data(text.utf8).write(to: URL(fileURLWithPath: file.path))
        let loaded = try file.load()
        let source = loaded.report.sourceName
        #expect(source == "salvaged", "\(loaded.report)")
        #expect((loaded.report.salvage?.changeCount ?? 0) > 0)
        #expect(try metrics.expectGauge("notes_load_info", [("source", source)]).lastValue == 1)
        #expect(
            try metrics.expectGauge("notes_load_migration_steps").lastValue
                == Double(loaded.report.stepsApplied.count))
        #expect(
            try metrics.expectGauge("notes_load_salvaged_records").lastValue
                == Double(loaded.report.salvage?.changeCount ?? 0))
    }

    @Test func errnoNamesTheSystemCallThatFailed() {
        let full = StateStoreError.writeFailed(
            DurableWriteError(
                stage: .write, path: "/x", underlying: FileSystemError(operation: "write", path: "/x", errno: ENOSPC)))
        #expect(full.errno == ENOSPC)
        #expect(StateStoreError.corrupt(path: "/x", reason: "bad").errno == nil)
    }
}
