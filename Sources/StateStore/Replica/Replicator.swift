import Dispatch
import FoundationEssentials
import Synchronization

/// Ships a journaled state's history off the host, to a ``ReplicaTarget``.
///
/// Every ``ReplicatorConfiguration/syncInterval`` a pass on the replicator's own queue reads the history directory
/// and the live journal beside the state file (the files the history of ``HistoryConfiguration`` keeps: snapshots,
/// segments moved into the history, the open segment) and creates an object for what the replica lacks: each
/// snapshot once, and each segment as pieces of whole records from where the replica's copy ends (named by
/// lineage, revision and SHA-256). Objects are never replaced, so a pass repeated after a crash rewrites nothing.
/// Then it replaces `manifest.json`, which names the newest lineage and revision for a restore (``ReplicaRestore``).
///
/// Only the installation holding the lease writes; see ``ReplicaLease``. A pass that fails (the store down,
/// refusing, slow) changes nothing local: the next one, after ``ReplicatorConfiguration/backoff``, ships what
/// both missed. The replicator reads the files only, and takes no lock of the state: a segment moved into the
/// history between the listing and the read is shipped by the next pass.
public final class Replicator: Sendable {
    /// Where the replica is.
    public let target: any ReplicaTarget
    /// The state file whose history is shipped.
    public let stateFilePath: String
    /// The configuration.
    public let configuration: ReplicatorConfiguration
    let fileSystem: any FileSystem
    let queue: DispatchQueue
    let observer: (@Sendable (ReplicaEvent) -> Void)?
    /// Told of every history file the replica holds whole, so that the history may prune it.
    public let hold: HistoryHold?
    let state = Mutex(ReplicatorState())

    /// A replicator of the history of the state file at `stateFilePath` to `target`; it does nothing until
    /// ``start()`` or ``sync()``. `observer` is told of failures, recoveries and the lease, on the replicator's
    /// queue. `hold`, given to the state too (``PersistentState/init(file:loaded:journaling:journal:history:historyHold:configuration:scheduler:observer:)``),
    /// keeps the history from pruning what the replica lacks: a pass releases each history file once the replica
    /// holds it whole.
    public init(
        stateFilePath: String, target: any ReplicaTarget, configuration: ReplicatorConfiguration,
        fileSystem: any FileSystem = PosixFileSystem(), hold: HistoryHold? = nil,
        observer: (@Sendable (ReplicaEvent) -> Void)? = nil
    ) {
        self.hold = hold
        self.stateFilePath = stateFilePath
        self.target = target
        self.configuration = configuration
        self.fileSystem = fileSystem
        self.observer = observer
        self.queue = DispatchQueue(label: "StateStore.Replicator")
    }

    /// What the replicator has done so far.
    public var status: ReplicaStatus { state.withLock { $0.status } }

    /// Starts passes every ``ReplicatorConfiguration/syncInterval``, the first one now. Calling it again does
    /// nothing.
    public func start() {
        let started = state.withLock { state -> Bool in
            guard !state.running else { return false }
            state.running = true
            state.generation += 1
            return true
        }
        guard started else { return }
        queue.async { self.tick(generation: self.state.withLock { $0.generation }) }
    }

    /// Stops the periodic passes after the one running, if any, and returns once it is done. With `finalPass`, runs
    /// one more pass first, so that what the journal holds at the stop is shipped (or the pass's error returned).
    @discardableResult
    public func stop(finalPass: Bool = false) -> ReplicaStatus {
        state.withLock {
            $0.running = false
            $0.generation += 1
        }
        return queue.sync {
            if finalPass { runPass() }
            return status
        }
    }

    /// Runs one pass now, on the replicator's queue, and returns the status after it: what a durable
    /// acknowledgement that must be on the replica too waits for. Must not be called from the observer.
    @discardableResult
    public func sync() -> ReplicaStatus {
        queue.sync {
            runPass()
            return status
        }
    }

    /// Takes the lease from whichever installation holds it: the explicit step after a host is gone. The next
    /// pass writes.
    ///
    /// - Throws: ``ReplicaError`` when the store cannot be read or written, or changed the lease meanwhile.
    public func takeOver() throws(ReplicaError) {
        let result = queue.sync { Result { () throws(ReplicaError) in try forceLease(now: Date()) } }
        try result.get()
    }

    /// One periodic pass, then the next one scheduled after the interval or the backoff.
    private func tick(generation: Int) {
        guard state.withLock({ $0.running && $0.generation == generation }) else { return }
        runPass()
        let failures = state.withLock { $0.status.consecutiveFailures }
        let delay = failures > 0 ? configuration.backoff.delay(afterFailures: failures) : configuration.syncInterval
        let (seconds, attoseconds) = delay.components
        let nanoseconds = Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
        queue.asyncAfter(deadline: .now() + .nanoseconds(max(1, nanoseconds))) {
            self.tick(generation: generation)
        }
    }
}

/// What a ``Replicator`` remembers between passes.
struct ReplicatorState {
    var running = false
    var generation = 0
    var status = ReplicaStatus()
    /// Whether the replica's objects were listed since the replicator started.
    var listed = false
    /// The snapshots the replica holds, by lineage and revision.
    var snapshots: Set<ReplicatorSegmentKey> = []
    /// How far the replica holds each segment, and its last piece (to check that the local bytes still match).
    var segments: [ReplicatorSegmentKey: ReplicatorShippedPiece] = [:]
    /// What passes learned of each local segment file, by path.
    var files: [String: ReplicatorFileProgress] = [:]
    /// The version of the lease this installation wrote, while it holds it, and when.
    var lease: ReplicaLease?
    var leaseVersion: ReplicaObjectVersion?
    var leaseRenewed: Date?
    /// The manifest as last written and its version.
    var manifest: ReplicaManifest?
    var manifestVersion: ReplicaObjectVersion?
}

/// A segment (or a snapshot) of the history: its lineage and base revision.
struct ReplicatorSegmentKey: Hashable, Sendable {
    var lineage: String
    var base: UInt64
}

/// A local segment file as a pass left it: its size and time then, where its whole records ended, its newest
/// change.
struct ReplicatorFileProgress: Sendable {
    var size: Int
    var modified: Date
    var key: ReplicatorSegmentKey
    var validEnd: Int
    var newest: ReplicatorNewest
}

/// The last piece of a segment the replica holds.
struct ReplicatorShippedPiece: Sendable {
    var offset: Int
    var end: Int
    var sha256: String
}
