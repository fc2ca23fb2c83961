import FoundationEssentials
import StateStore

/// The open secret store: the installation record and the API tokens, owned at run time by a
/// ``StateStore/PersistentState`` over `secrets.json.enc`.
///
/// Open it with ``open(at:key:options:)``. Creating and revoking a token answer only once the change is on disk;
/// a token's `lastUsedAt` is updated in memory at most once a minute (``lastUsedResolution``) and saved with the
/// normal debounced save, and on ``close()``.
public final class SecretStore: Sendable {
    /// How often, at most, a token's `lastUsedAt` changes: once a minute.
    public static let lastUsedResolution: TimeInterval = 60

    /// The runtime owner of the store's model.
    public let state: PersistentState<Secrets>
    /// The id of the key the store is sealed under.
    public let keyID: String
    /// Where that key came from.
    public let keySource: SecretsKeySource
    let now: @Sendable () -> Date

    init(
        state: PersistentState<Secrets>, keyID: String, keySource: SecretsKeySource, now: @escaping @Sendable () -> Date
    ) {
        self.state = state
        self.keyID = keyID
        self.keySource = keySource
        self.now = now
    }

    /// Which installation this is.
    public var installation: InstallationRecord { state.read { $0.installation } }

    /// Every token, revoked ones included, in creation order.
    public func tokens() -> [TokenRecord] { state.read { $0.tokens } }

    /// Refuses further changes and saves what is not on disk yet (the daemon's stop).
    public func close() throws(PersistenceError) {
        try state.close()
    }

    /// Whole seconds of `date`.
    static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }
}
