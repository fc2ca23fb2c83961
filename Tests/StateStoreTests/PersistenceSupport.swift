import Dispatch
import Foundation
import StateStore
import StateStoreSample
import StateStoreTesting
import Synchronization
import TestSupport

/// A notebook state in a temporary directory, behind a fault-injecting file system and a manual clock.
struct PersistenceHarness {
    let directory: TemporaryDirectory
    let fileSystem: FaultInjectingFileSystem
    let scheduler: ManualPersistenceScheduler
    let file: StateFile<Notebook>
    let state: PersistentState<Notebook>
    let events: EventLog

    init(configuration: PersistenceConfiguration = PersistenceConfiguration()) throws {
        directory = try TemporaryDirectory()
        fileSystem = FaultInjectingFileSystem()
        scheduler = ManualPersistenceScheduler()
        file = try notebookFile(directory, fileSystem: fileSystem)
        let events = EventLog()
        self.events = events
        state = PersistentState(
            file: file, loaded: try file.load(), configuration: configuration, scheduler: scheduler,
            observer: { events.append($0) })
    }

    /// Appends note `index` and returns the revision it got.
    @discardableResult
    func addNote(_ index: Int) throws -> UInt64 {
        try state.apply { $0.notes.append(Note(id: "n\(index)", title: "note \(index)", kind: .text, tags: [])) }
            .revision
    }

    /// The note ids in the file on disk.
    func storedNoteIDs() throws -> [String] {
        let codec = StateCodec(schema: try NotebookSchema.make())
        return try codec.decode(directory.read("notebook.json")).model.notes.map(\.id)
    }

    /// Waits until no save is running: acknowledgements resume before the in-flight mark is cleared and the next
    /// timer is armed.
    func waitUntilIdle() async {
        _ = await eventually { !state.status.isSaving }
    }

    func remove() { directory.remove() }
}

/// Events an observer received, in order.
final class EventLog: Sendable {
    private let events = Mutex<[PersistenceEvent]>([])

    func append(_ event: PersistenceEvent) { events.withLock { $0.append(event) } }

    var all: [PersistenceEvent] { events.withLock { $0 } }

    var savedRevisions: [UInt64] {
        all.compactMap { if case .saved(let revision, _, _) = $0 { revision } else { nil } }
    }
}

/// Blocks the first `count` durable writes at their temporary-file creation until released.
final class SaveGate: Sendable {
    private let remaining: Mutex<Int>
    private let creates = Mutex(0)
    private let entered = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)

    init(fileSystem: FaultInjectingFileSystem, blocking count: Int = 1) {
        remaining = Mutex(count)
        fileSystem.setBeforeCall { [self] operation, _ in
            guard operation == .create else { return }
            creates.withLock { $0 += 1 }
            let block = remaining.withLock { remaining in
                defer { remaining -= 1 }
                return remaining > 0
            }
            guard block else { return }
            entered.signal()
            released.wait()
        }
    }

    /// Waits until a save is blocked in the gate.
    func waitUntilEntered() -> Bool { entered.wait(timeout: .now() + 10) == .success }

    /// How many temporary files saves have started to create, blocked or not.
    var createCount: Int { creates.withLock { $0 } }

    /// Lets one blocked save go on.
    func release() { released.signal() }
}

/// A flag set from another thread.
final class Flag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}

/// An error a change throws on purpose.
struct RejectedChange: Error, Equatable {}

/// A wait for a revision registered at once, so a save that fails before the test gets to wait still reports
/// to it (a wait registered after a failure would wait for the next save).
final class DurabilityProbe: Sendable {
    private let result = Mutex<Result<Void, PersistenceError>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(_ state: PersistentState<Notebook>, revision: UInt64) {
        state.whenDurable(revision) { [self] outcome in
            result.withLock { $0 = outcome }
            done.signal()
        }
    }

    /// The outcome, or nil if none came within 10 s.
    func wait() -> Result<Void, PersistenceError>? {
        guard done.wait(timeout: .now() + 10) == .success else { return nil }
        return result.withLock { $0 }
    }
}
