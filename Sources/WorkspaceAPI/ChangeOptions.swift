/// How a change is acknowledged and guarded: durability and optimistic concurrency.
///
/// The one place their wire form is written and read: the client sends it (``target(_:)``, ``headers``) and the
/// daemon parses it (``init(durableQuery:durableHeader:ifMatch:)``), so the names and the rules exist once.
public struct ChangeOptions: Sendable, Equatable {
    /// Answer only once the change is on disk (`?durable=true`, or the header `Workspaced-Durable: true`).
    public var durable: Bool
    /// Apply only while the workspace is still a state one of these tags names (`If-Match`); 412 otherwise. `nil`
    /// for no guard (no `If-Match`, or `If-Match: *`); an empty list matches nothing.
    public var ifMatch: [IfMatchTag]?

    /// Options with the given parts; the default is an in-memory acknowledgement without a revision guard.
    public init(durable: Bool = false, ifMatch: WorkspaceETag? = nil) {
        self.durable = durable
        self.ifMatch = ifMatch.map { [.tag($0)] }
    }

    /// The query item that asks for a durable acknowledgement: `durable`.
    package static let durableQueryItem = "durable"
    /// The header that asks for a durable acknowledgement, like `?durable=true`: `Workspaced-Durable`.
    package static let durableHeader = "Workspaced-Durable"
    /// The header that guards a change with entity tags: `If-Match`.
    package static let ifMatchHeader = "If-Match"

    /// The request target with `?durable=true` when durability is asked for.
    package func target(_ path: String) -> String { durable ? path + "?\(Self.durableQueryItem)=true" : path }

    /// `If-Match` with the tags, quoted and separated by commas, when a guard is given.
    package var headers: [(String, String)] {
        ifMatch.map { [(Self.ifMatchHeader, $0.map(\.quoted).joined(separator: ", "))] } ?? []
    }
}
