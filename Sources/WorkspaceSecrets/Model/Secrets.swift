import StateModel
import StateStore

/// The current (version 2) contents of `secrets.json.enc`: the installation record and the API tokens.
///
/// Keys this release does not declare are kept at every level and written back.
@StateModel
public struct Secrets: Codable, Sendable, Equatable {
    /// Which installation this is; written once.
    public var installation: InstallationRecord
    /// Every token ever created, revoked ones included, in creation order; a missing `tokens` reads as none and
    /// is recorded as defaulted in the load report.
    public var tokens: [TokenRecord] = []
    /// Root keys this version does not declare.
    public var unknownFields: UnknownFields

    /// The token with `id`, if any.
    public func token(_ id: String) -> TokenRecord? {
        tokens.first { $0.id == id }
    }
}
