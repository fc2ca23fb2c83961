/// How a change is acknowledged and guarded: durability and optimistic concurrency.
public struct ChangeOptions: Sendable, Equatable {
    /// Answer only once the change is on disk (`?durable=true`).
    public var durable: Bool
    /// Apply only while the workspace is at this revision (`If-Match: "<revision>"`); 412 otherwise.
    public var ifMatch: UInt64?

    /// Options with the given parts; the default is an in-memory acknowledgement without a revision guard.
    public init(durable: Bool = false, ifMatch: UInt64? = nil) {
        self.durable = durable
        self.ifMatch = ifMatch
    }

    /// The request target with `?durable=true` when durability is asked for.
    func target(_ path: String) -> String { durable ? path + "?durable=true" : path }

    /// `If-Match` when a revision is given.
    var headers: [(String, String)] { ifMatch.map { [("If-Match", "\"\($0)\"")] } ?? [] }
}
