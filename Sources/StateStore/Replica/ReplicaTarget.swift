import FoundationEssentials

/// Where a replica's objects are kept off the host: a directory on a mounted volume
/// (``DirectoryReplicaTarget``, also what the tests replicate to) or an S3-compatible object store.
///
/// What a replica ships is the history's: snapshots and journal segments, as objects that are never changed once
/// written (``create(_:bytes:)``), which a restore reads back (``read(_:)``, ``list(prefix:)``) and retention
/// removes (``remove(_:)``). The one object that changes is the lease, which one writer holds per prefix: it is
/// replaced only by a conditional write (``replace(_:bytes:ifVersion:)``), as S3's `If-Match` and `If-None-Match: *`
/// do, so that two hosts configured with one prefix never both write.
///
/// Object names are relative, `/`-separated, of the characters `A–Z a–z 0–9 . _ -` and `/`, without `.` or `..`
/// segments (``ReplicaObjectName``). Calls block until the store answers: make them on a queue of the replicator's
/// own, never an event loop.
public protocol ReplicaTarget: Sendable {
    /// Stores `bytes` as `name`, unless an object of that name exists: then nothing is written, and the answer says
    /// whether it holds the same bytes (a write repeated after a crash) or others (a conflict to report).
    ///
    /// - Throws: ``ReplicaError`` when the store cannot be written.
    func create(_ name: ReplicaObjectName, bytes: Data) throws(ReplicaError) -> ReplicaCreation

    /// The bytes of `name` and their version; `nil` when there is no such object.
    ///
    /// - Throws: ``ReplicaError`` when the store cannot be read.
    func read(_ name: ReplicaObjectName) throws(ReplicaError) -> (bytes: Data, version: ReplicaObjectVersion)?

    /// The objects whose names start with `prefix` (a name, or a name and a trailing `/`), sorted by name.
    ///
    /// - Throws: ``ReplicaError`` when the store cannot be listed.
    func list(prefix: String) throws(ReplicaError) -> [ReplicaObject]

    /// Replaces `name` with `bytes` only if its version is `expected`, or, with `nil`, only if there is no such
    /// object: the new version, or `nil` when the condition did not hold and nothing was written.
    ///
    /// - Throws: ``ReplicaError`` when the store cannot be written.
    func replace(
        _ name: ReplicaObjectName, bytes: Data, ifVersion expected: ReplicaObjectVersion?
    ) throws(ReplicaError) -> ReplicaObjectVersion?

    /// Removes `name`; removing an object that is not there is not an error.
    ///
    /// - Throws: ``ReplicaError`` when the store cannot be written.
    func remove(_ name: ReplicaObjectName) throws(ReplicaError)
}
