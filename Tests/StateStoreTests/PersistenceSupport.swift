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
    /// Saves that entered the gate, and how many of them ``waitUntilEntered()`` has reported.
    private let entries = Mutex((entered: 0, reported: 0))
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
            entries.withLock { $0.entered += 1 }
            // The save holds here until the test lets it go: the thread is the state's save queue or a thread a
            // test started for a synchronous flush, never one of the cooperative pool.
            released.wait()
        }
    }

    /// Waits, without holding a thread, until one more save is blocked in the gate than this has reported so
    /// far; false if none came within 10 s.
    func waitUntilEntered() async -> Bool {
        await eventually(timeout: .seconds(10)) {
            entries.withLock { entries in
                guard entries.entered > entries.reported else { return false }
                entries.reported += 1
                return true
            }
        }
    }

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
    private let outcome = FirstOutcome<Result<Void, PersistenceError>?>()

    init(_ state: PersistentState<Notebook>, revision: UInt64) {
        state.whenDurable(revision) { [outcome] in outcome.resolve($0) }
    }

    /// The outcome, or nil if none came within 10 s; awaited, holding no thread.
    func wait() async -> Result<Void, PersistenceError>? {
        await outcome.value(orAfter: .seconds(10), nil)
    }
}

extension PersistentState {
    /// ``waitUntilDurable(_:)`` with the bound of ``waitUntilDurableBlocking(_:timeout:)``: throws
    /// ``PersistenceError/timedOut(path:revision:)`` once `timeout` passed, but awaits instead of blocking a thread
    /// of the cooperative pool.
    func waitUntilDurable(_ revision: UInt64, timeout: Duration) async throws(PersistenceError) {
        let outcome = FirstOutcome<Result<Void, PersistenceError>>()
        whenDurable(revision) { outcome.resolve($0) }
        try await outcome.value(orAfter: timeout, .failure(.timedOut(path: file.path, revision: revision))).get()
    }
}

/// A value that one of several racing callbacks provides; the first one counts, the later ones are ignored.
final class FirstOutcome<Value: Sendable>: Sendable {
    private let state = Mutex<(value: Value?, waiter: CheckedContinuation<Value, Never>?)>((nil, nil))

    /// Provides the value, unless one was provided before.
    func resolve(_ value: Value) {
        let waiter = state.withLock { state -> CheckedContinuation<Value, Never>? in
            guard state.value == nil else { return nil }
            state.value = value
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: value)
    }

    /// The value once provided, or `fallback` if none was provided within `timeout`; holds no thread meanwhile.
    /// Call it once.
    func value(orAfter timeout: Duration, _ fallback: Value) async -> Value {
        let deadline = Task { [self] in
            try await Task.sleep(for: timeout)
            resolve(fallback)
        }
        defer { deadline.cancel() }
        return await withCheckedContinuation { continuation in
            let value = state.withLock { state -> Value? in
                if state.value == nil { state.waiter = continuation }
                return state.value
            }
            if let value { continuation.resume(returning: value) }
        }
    }
}
