import FoundationEssentials

/// An object of a replica read and checked on another thread while a restore reads others: the snapshot a restore of
/// the latest state will choose, fetched beside the journal's pieces that decide the choice (their headers name the
/// lineages), rather than after them. A restore that chooses another snapshot drops it unread.
///
/// The read runs on Dispatch's global queue, but nothing waits for it to start: ``bytes()`` reads the object itself
/// when the queue has not begun to, so a restore called from a pool whose threads are all busy never waits for one.
final class ReplicaPrefetch: Sendable {
    /// The object being read.
    let name: ReplicaObjectName
    private let read: BackgroundValue<Result<Data, ReplicaRestoreError>>

    /// Starts reading `name` from `target` on Dispatch's global queue, checking its bytes against `sha256`.
    init(_ name: ReplicaObjectName, sha256: String, from target: any ReplicaTarget, digest: ReplicaDigest) {
        self.name = name
        read = BackgroundValue(qos: .default) {
            Result { () throws(ReplicaRestoreError) in
                try ReplicaReader.fetch(name, sha256: sha256, from: target, digest: digest)
            }
        }
    }

    /// The object's checked bytes: read here when the queue has not begun to, or once its read is done.
    ///
    /// - Throws: ``ReplicaRestoreError`` as ``ReplicaReader/fetch(_:sha256:from:digest:)`` gives it.
    func bytes() throws(ReplicaRestoreError) -> Data {
        try read.value.get()
    }
}
