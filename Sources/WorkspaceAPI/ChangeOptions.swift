/// How a change is acknowledged and guarded: durability and optimistic concurrency.
public struct ChangeOptions: Sendable, Equatable {
    /// Answer only once the change is on disk (`?durable=true`).
    public var durable: Bool
    /// Apply only while the workspace is still the state this entity tag names (`If-Match`); 412 otherwise.
    public var ifMatch: WorkspaceETag?

    /// Options with the given parts; the default is an in-memory acknowledgement without a revision guard.
    public init(durable: Bool = false, ifMatch: WorkspaceETag? = nil) {
        self.durable = durable
        self.ifMatch = ifMatch
    }

    /// The request target with `?durable=true` when durability is asked for.
    package func target(_ path: String) -> String { durable ? path + "?durable=true" : path }

    /// `If-Match` when an entity tag is given.
    package var headers: [(String, String)] { ifMatch.map { [("If-Match", $0.quoted)] } ?? [] }
}
