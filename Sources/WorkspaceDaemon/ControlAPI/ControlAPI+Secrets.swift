import WorkspaceAPI
import WorkspaceSecrets

extension ControlAPI {
    /// The installation for `/v1/status`: the store's record, or `installation.json`'s while the store is
    /// unavailable.
    func installationStatus() -> InstallationStatus? {
        guard let record = secrets.store?.installation ?? secrets.installation else { return nil }
        return InstallationStatus(
            id: record.id.uuidString.lowercased(), firstStartedAt: record.firstStartedAt,
            firstRelease: record.firstRelease)
    }

    /// The secret store for `/v1/status`: enabled with its key and active tokens, or disabled and why.
    func secretsStatus() -> SecretsStatus {
        guard let store = secrets.store else {
            return SecretsStatus(
                state: "disabled", reason: secrets.unavailable?.message,
                reasonCode: secrets.unavailable?.reason.rawValue,
                keySource: secrets.keySource?.kind, keyId: secrets.keyID)
        }
        return SecretsStatus(
            state: "enabled", keySource: store.keySource.kind, keyId: store.keyID,
            activeTokens: store.state.read { $0.tokens.filter { !$0.isRevoked }.count })
    }
}

extension TokenInfo {
    /// The listed form of a stored token.
    init(_ record: TokenRecord) {
        self.init(
            id: record.id, name: record.name, scope: record.scope.rawValue, createdAt: record.createdAt,
            lastUsedAt: record.lastUsedAt, revokedAt: record.revokedAt)
    }
}
