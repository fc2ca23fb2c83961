import Dispatch
import FoundationEssentials
import Synchronization

/// The runtime owner of a loaded state: applies changes one at a time, gives each a revision, and saves in the
/// background, debounced, with durable acknowledgements and a synchronous flush for shutdown.
///
/// ```swift
/// let file = StateFile(path: "/var/lib/app/state.json", schema: schema)
/// let state = PersistentState(file: file, loaded: try file.load())
/// let applied = try state.apply { $0.notes.append(note) }
/// try await state.waitUntilDurable(applied.revision)   // only when the caller must know it is on disk
/// let count = state.read { $0.notes.count }
/// // at shutdown, from a Dispatch signal source:
/// try state.close()                                     // refuses later changes, then flushes
/// ```
///
/// The owner is a lock (`Mutex`), not an actor or a queue: a signal handler and other synchronous code can flush
/// and read without an async context, a change is applied on the caller's thread without a hop, and taking a
/// snapshot for a save is a copy-on-write copy made while the lock is held for microseconds. Encoding and the
/// durable replace run on a background queue without the lock. Change and read closures run while the lock is
/// held: they must be short and must not call back into the same state.
public final class PersistentState<Model: Codable & Sendable>: Sendable {
    /// The file the state is saved to.
    public let file: StateFile<Model>
    /// Debounce, maximum delay and retry backoff now in force.
    public var configuration: PersistenceConfiguration { configurationStore.withLock { $0 } }
    let configurationStore: Mutex<PersistenceConfiguration>
    let scheduler: any PersistenceScheduler
    let observer: (@Sendable (PersistenceEvent) -> Void)?
    let saveQueue: DispatchQueue
    let state: Mutex<PersistenceEngineState<Model>>
    /// Where the journal's group syncs and the closing of its segments run, one at a time.
    let journalQueue: DispatchQueue
    /// The name of the journal's change type, for ``PersistenceError/notJournaled(path:changeType:)``: made when
    /// asked, because `String(describing:)` of a type asks the runtime whether the metatype conforms to three
    /// printing protocols, a scan of every conformance record each, 0.4 ms of a start's CPU.
    let journalChangeTypeName: @Sendable () -> String
    /// What the start replayed from the journal.
    let replay: JournalReplay?
    /// The history directory, while history is kept.
    let history: HistoryArchive?
    /// Replays the history's changes onto a past snapshot (it knows the journal's change type).
    let historyReplayer: HistoryReplayer<Model>?

    /// Takes ownership of `model`, freshly loaded from `file`: at the revision the file holds
    /// (``StateFile/revision``), considered durable, in the file's ``StateFile/lineage``. The first change gets
    /// the next revision, so revisions keep counting across restarts.
    ///
    /// - Parameters:
    ///   - file: The file the state was loaded from and is saved to.
    ///   - model: The loaded model.
    ///   - configuration: The debounce, maximum delay and retry backoff of the saves.
    ///   - scheduler: The clock and timers; tests pass a manual one.
    ///   - observer: Told about saves, failures and recoveries, one event at a time in save order.
    public convenience init(
        file: StateFile<Model>,
        model: Model,
        configuration: PersistenceConfiguration = PersistenceConfiguration(),
        scheduler: any PersistenceScheduler = DispatchPersistenceScheduler(),
        observer: (@Sendable (PersistenceEvent) -> Void)? = nil
    ) {
        self.init(
            file: file, model: model, revision: file.revision, journal: nil, changeTypeName: { "" }, replay: nil,
            configuration: configuration, scheduler: scheduler, observer: observer)
    }

    /// The state at `revision`, of which the file holds `file.revision`, with the journal's part when it keeps one.
    init(
        file: StateFile<Model>, model: Model, revision: UInt64, journal: JournalEngineState?,
        changeTypeName: @escaping @Sendable () -> String,
        replay: JournalReplay?, configuration: PersistenceConfiguration, scheduler: any PersistenceScheduler,
        observer: (@Sendable (PersistenceEvent) -> Void)?, history: HistoryArchive? = nil,
        historyReplayer: HistoryReplayer<Model>? = nil
    ) {
        self.file = file
        self.configurationStore = Mutex(configuration)
        self.scheduler = scheduler
        self.observer = observer
        self.saveQueue = DispatchQueue(label: "StateStore.persistence.save")
        self.journalQueue = DispatchQueue(label: "StateStore.persistence.journal")
        self.journalChangeTypeName = changeTypeName
        self.replay = replay
        self.history = history
        self.historyReplayer = historyReplayer
        var engine = PersistenceEngineState(model: model, revision: file.revision)
        engine.status.revision = revision
        engine.journal = journal
        if revision > file.revision {
            // Replayed changes: in memory, not yet in the state file.
            let now = scheduler.now
            engine.lastChangeAt = now
            engine.dirtySince = now
        }
        self.state = Mutex(engine)
    }

    /// The lineage of the state (``Lineage``): with a revision, it names one state forever.
    public var lineage: Lineage { file.lineage }

    /// Takes ownership of the result of `file.load()`.
    public convenience init(
        file: StateFile<Model>,
        loaded: LoadedState<Model>,
        configuration: PersistenceConfiguration = PersistenceConfiguration(),
        scheduler: any PersistenceScheduler = DispatchPersistenceScheduler(),
        observer: (@Sendable (PersistenceEvent) -> Void)? = nil
    ) {
        self.init(
            file: file, model: loaded.model, configuration: configuration, scheduler: scheduler, observer: observer)
    }

    /// Replaces the debounce, maximum delay and backoff (a daemon's reload); the next scheduling uses them.
    public func reconfigure(_ configuration: PersistenceConfiguration) {
        configurationStore.withLock { $0 = configuration }
    }

    deinit {
        let segments = state.withLock { engine in
            engine.timer?.handle.cancel()
            return engine.journal?.segments ?? []
        }
        for segment in segments { try? file.fileSystem.close(segment.descriptor, path: segment.path) }
    }

    /// Applies `change` to the state and gives it the next revision; a save is scheduled.
    ///
    /// A change that throws changes nothing and gets no revision. To make that so, a throwing change runs on a
    /// copy, which copies every collection it touches; a change that cannot throw (`Failure == Never`) runs in
    /// place.
    /// - Parameters:
    ///   - validatesBeforeMutating: The change promises to throw only before it modifies anything (it validates
    ///     first), so it runs in place without a copy even though it can throw. A change that breaks the promise
    ///     leaves its partial modification in the state without a revision; leave it `false` for changes made of
    ///     several steps that can each fail.
    ///   - expecting: Applies the change only while the state is at a revision this accepts (an HTTP `If-Match`),
    ///     checked under the same lock as the change, so no other change can come in between; otherwise nothing
    ///     changes and ``PersistenceError/revisionMismatch(path:current:)`` names the current revision. `nil`
    ///     accepts any revision.
    ///   - change: Modifies the model; runs under the lock, so it must be short and must not call back into this
    ///     state.
    ///   - applied: Runs under the lock once the change has its revision, before any later change is applied:
    ///     what must happen in revision order (publishing an event). It must be short and must not call back into
    ///     this state.
    /// - Returns: What `change` returned, and the revision it was given.
    /// - Throws: ``PersistenceError/closed(path:)`` after ``close()``,
    ///   ``PersistenceError/revisionMismatch(path:current:)`` when `expecting` refuses the revision, or the
    ///   change's own error, unchanged.
    @discardableResult
    public func apply<Value: Sendable, Failure: Error>(
        validatesBeforeMutating: Bool = false,
        expecting: ((_ revision: UInt64) -> Bool)? = nil,
        _ change: (inout Model) throws(Failure) -> Value,
        applied: ((Applied<Value>) -> Void)? = nil
    ) throws -> Applied<Value> {
        let outcome: ApplyOutcome<Value, Model> = state.withLock { engine in
            guard !engine.status.isClosed else { return .refused }
            if engine.journal != nil {
                return .failed(PersistenceError.notJournaled(path: file.path, changeType: journalChangeTypeName()))
            }
            if let expecting, !expecting(engine.status.revision) {
                return .failed(PersistenceError.revisionMismatch(path: file.path, current: engine.status.revision))
            }
            let value: Value
            if Failure.self == Never.self || validatesBeforeMutating {
                do {
                    value = try change(&engine.model)
                } catch {
                    return .failed(error)
                }
            } else {
                var working = engine.model
                do {
                    value = try change(&working)
                } catch {
                    return .failed(error)
                }
                engine.model = working
            }
            let now = scheduler.now  // read under the lock, so change times never go backwards
            engine.status.revision += 1
            file.figures.applied(revision: engine.status.revision)
            engine.lastChangeAt = now
            if engine.dirtySince == nil { engine.dirtySince = now }
            let result = Applied(value: value, revision: engine.status.revision)
            applied?(result)
            return .accepted(result, scheduleOrStartSave(&engine))
        }
        return try complete(outcome)
    }

    /// Starts the save an applied change made due and returns its result, or throws why it was refused (or, for a
    /// change the journal could not record, why it is not acknowledged).
    func complete<Value>(_ outcome: ApplyOutcome<Value, Model>) throws -> Applied<Value> {
        switch outcome {
        case .refused:
            throw PersistenceError.closed(path: file.path)
        case .failed(let error):
            throw error
        case .accepted(let applied, let job):
            if let job { startInBackground(job) }
            return applied
        case .notJournaled(_, let job, let error):
            deliverJournalEvents()
            if let job { startInBackground(job) }
            throw error
        }
    }

    /// Runs `body` with the current model, under the lock.
    public func read<Value, Failure: Error>(
        _ body: (borrowing Model) throws(Failure) -> sending Value
    ) throws(Failure) -> sending Value {
        try state.withLock { engine throws(Failure) -> sending Value in try body(engine.model) }
    }

    /// Runs `body` with the current revision, under the lock: no change is applied while it runs, so what it
    /// does comes between two revisions (a reader of changes subscribes exactly after `revision`).
    public func atCurrentRevision<Value, Failure: Error>(
        _ body: (_ revision: UInt64) throws(Failure) -> sending Value
    ) throws(Failure) -> sending Value {
        try state.withLock { engine throws(Failure) -> sending Value in try body(engine.status.revision) }
    }

    /// A copy of the current model and its revision (copy-on-write: O(1)).
    public var snapshot: (model: Model, revision: UInt64) {
        state.withLock { ($0.model, $0.status.revision) }
    }

    /// The current status.
    public var status: PersistenceStatus {
        state.withLock { $0.status }
    }
}

/// What happened to one call of `PersistentState.apply`.
enum ApplyOutcome<Value, Model: Sendable> {
    case refused
    case failed(any Error)
    case accepted(Applied<Value>, SaveJob<Model>?)
    /// Applied, but the journal did not record it: not acknowledged.
    case notJournaled(Applied<Value>, SaveJob<Model>?, PersistenceError)
}
