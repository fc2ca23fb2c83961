import FoundationEssentials
import StateStore

/// A token just created: its record and the token itself, to be shown once.
public struct CreatedToken: Sendable, Equatable {
    /// What the store keeps.
    public var record: TokenRecord
    /// The token to hand to the client (``BearerToken/text``); it cannot be shown again.
    public var token: BearerToken
}

extension SecretStore {
    /// The longest token name, in characters.
    public static let maximumNameLength = 256

    /// What `presented` (the text after `Bearer `) is worth.
    ///
    /// The secret's SHA-256 is compared with the stored hash in constant time. A granted token's `lastUsedAt`
    /// moves to now when it is a minute or more old (a change saved with the debounce).
    public func authenticate(_ presented: some StringProtocol) -> TokenAuthentication {
        let token: BearerToken
        switch BearerToken.parse(presented) {
        case .malformed(let id): return .malformed(id: id)
        case .token(let parsed): token = parsed
        }
        let digest = token.secretHash
        let found = state.read { model -> (matches: Bool, scope: TokenScope, revoked: Bool, lastUsed: Date?)? in
            guard let record = model.token(token.id) else { return nil }
            let stored = Hex.decode(record.secretHash) ?? []
            return (ConstantTime.equal(stored, digest), record.scope, record.isRevoked, record.lastUsedAt)
        }
        guard let found else { return .unknown(id: token.id) }
        guard found.matches else { return .wrongSecret(id: token.id) }
        guard !found.revoked else { return .revoked(id: token.id) }
        let now = self.now()
        if Self.isStale(found.lastUsed, now: now) {
            _ = try? state.apply { (model: inout Secrets) in
                guard let index = model.tokens.firstIndex(where: { $0.id == token.id }),
                    Self.isStale(model.tokens[index].lastUsedAt, now: now)
                else { return }
                model.tokens[index].lastUsedAt = Self.wholeSeconds(now)
            }
        }
        return .granted(id: token.id, scope: found.scope)
    }

    /// Creates a token named `name` with `scope` and returns once it is on disk.
    ///
    /// - Throws: ``SecretStoreError/invalidName(reason:)``, ``SecretStoreError/invalidScope(_:)``,
    ///   ``SecretStoreError/closed``, or ``SecretStoreError/notDurable(_:)`` (the token then exists in memory
    ///   and is listed, but was never shown: revoke it).
    public func createToken(name: String, scope: TokenScope) async throws(SecretStoreError) -> CreatedToken {
        try Self.validate(name: name)
        guard scope.isKnown else { throw .invalidScope(scope.rawValue) }
        let createdAt = Self.wholeSeconds(now())
        let applied: Applied<CreatedToken>
        do {
            applied = try state.apply { (model: inout Secrets) -> CreatedToken in
                var token = BearerToken.generate()
                while model.token(token.id) != nil { token = BearerToken.generate() }
                let record = TokenRecord(
                    id: token.id, name: name, scope: scope, createdAt: createdAt, secretHash: token.secretHashHex)
                model.tokens.append(record)
                return CreatedToken(record: record, token: token)
            }
        } catch {
            throw .closed
        }
        try await waitUntilDurable(applied.revision)
        return applied.value
    }

    /// Revokes the token `id` and returns its record once the revocation is on disk. Revoking a revoked token
    /// changes nothing and returns it as it is.
    ///
    /// - Throws: ``SecretStoreError/notFound(id:)``, ``SecretStoreError/closed``,
    ///   ``SecretStoreError/notDurable(_:)``.
    public func revokeToken(id: String) async throws(SecretStoreError) -> TokenRecord {
        guard let existing = state.read({ $0.token(id) }) else { throw .notFound(id: id) }
        if existing.isRevoked { return existing }
        let revokedAt = Self.wholeSeconds(now())
        let applied: Applied<TokenRecord>
        do {
            applied = try state.apply(validatesBeforeMutating: true) {
                (model: inout Secrets) throws(SecretStoreError) -> TokenRecord in
                guard let index = model.tokens.firstIndex(where: { $0.id == id }) else { throw .notFound(id: id) }
                if model.tokens[index].revokedAt == nil { model.tokens[index].revokedAt = revokedAt }
                return model.tokens[index]
            }
        } catch let error as SecretStoreError {
            throw error
        } catch {
            throw .closed
        }
        try await waitUntilDurable(applied.revision)
        return applied.value
    }

    private func waitUntilDurable(_ revision: UInt64) async throws(SecretStoreError) {
        state.saveSoon()
        do {
            try await state.waitUntilDurable(revision)
        } catch {
            throw .notDurable(error)
        }
    }

    /// Whether a `lastUsedAt` of `lastUsed` should move to `now`.
    static func isStale(_ lastUsed: Date?, now: Date) -> Bool {
        guard let lastUsed else { return true }
        return now.timeIntervalSince(lastUsed) >= lastUsedResolution
    }

    /// A token name: 1 to 256 characters, no control characters.
    static func validate(name: String) throws(SecretStoreError) {
        guard !name.isEmpty else { throw .invalidName(reason: "must not be empty") }
        guard name.count <= maximumNameLength else {
            throw .invalidName(reason: "is \(name.count) characters; at most \(maximumNameLength) allowed")
        }
        let control = name.unicodeScalars.contains { scalar in
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: return true
            default: return false
            }
        }
        guard !control else { throw .invalidName(reason: "must not contain control characters") }
    }
}
