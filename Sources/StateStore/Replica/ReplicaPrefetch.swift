import Dispatch
import FoundationEssentials

/// An object of a replica read and checked on another thread while a restore reads others: the snapshot a restore of
/// the latest state will choose, fetched beside the journal's pieces that decide the choice (their headers name the
/// lineages), rather than after them. A restore that chooses another snapshot drops it unread.
///
/// The read runs on Dispatch's global queue, but nothing waits for it to start: ``bytes()`` reads the object itself
/// when the queue has not begun to, so a restore called from a pool whose threads are all busy never waits for one.
final class ReplicaPrefetch: @unchecked Sendable {
    /// Where the read is.
    private enum Stage {
        case pending
        case running
        case done(Result<Data, ReplicaRestoreError>)
    }

    /// The object being read.
    let name: ReplicaObjectName
    private let sha256: String
    private let target: any ReplicaTarget
    private let digest: ReplicaDigest
    private let condition = ConditionLock()
    // Under `condition`'s lock.
    private var stage = Stage.pending

    /// Starts reading `name` from `target` on Dispatch's global queue, checking its bytes against `sha256`.
    init(_ name: ReplicaObjectName, sha256: String, from target: any ReplicaTarget, digest: ReplicaDigest) {
        self.name = name
        self.sha256 = sha256
        self.target = target
        self.digest = digest
        DispatchQueue.global().async { [self] in _ = run() }
    }

    /// The object's checked bytes: read here when the queue has not begun to, or once its read is done.
    ///
    /// - Throws: ``ReplicaRestoreError`` as ``ReplicaReader/fetch(_:sha256:from:digest:)`` gives it.
    func bytes() throws(ReplicaRestoreError) -> Data {
        if let result = run() { return try result.get() }
        condition.lock()
        defer { condition.unlock() }
        while true {
            if case .done(let result) = stage { return try result.get() }
            condition.wait()
        }
    }

    /// Reads the object when nobody began to, and gives the result; `nil` when another thread has begun.
    private func run() -> Result<Data, ReplicaRestoreError>? {
        condition.lock()
        guard case .pending = stage else {
            condition.unlock()
            return nil
        }
        stage = .running
        condition.unlock()
        let result = Result { () throws(ReplicaRestoreError) in
            try ReplicaReader.fetch(name, sha256: sha256, from: target, digest: digest)
        }
        condition.lock()
        stage = .done(result)
        condition.broadcast()
        condition.unlock()
        return result
    }
}
