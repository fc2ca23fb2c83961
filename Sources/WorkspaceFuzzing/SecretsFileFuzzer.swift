import Foundation
import StateStore
import StateStoreTesting
import WorkspaceSecrets

/// The secrets file (`secrets.json.enc`) as the daemon opens it, with its key given. The first byte of an input
/// chooses what the rest is:
/// - even: the stored file itself (the envelope, its key id, nonce and tag; decryption fails for nearly all of
///   them, and must fail cleanly);
/// - odd: the plaintext, sealed with the key by the checker, so that the fuzzer reaches the decode and the
///   migrations behind the authentication tag.
///
/// Promises: opening never traps; a store that cannot be opened is left byte for byte as it was; a store that
/// opens opens again, after its own saves, with the same installation.
package final class SecretsFileFuzzer: FuzzChecking {
    static let keyBytes = [UInt8](repeating: 0x5A, count: SecretsKey.byteCount)
    let key: SecretsKey
    let location = SecretsLocation(directory: FuzzFileSystem.directory)

    /// A checker with a fixed key.
    package init() throws {
        key = try SecretsKey(bytes: Self.keyBytes)
    }

    /// Opens the store `input` makes and checks what follows.
    package func check(_ input: Data) async -> FuzzFinding? {
        guard let mode = input.first else { return nil }
        let stored: Data
        if mode & 1 == 0 {
            stored = Data(input.dropFirst())
        } else {
            do {
                stored = try SecretsSealing(key: key).seal(Data(input.dropFirst()))
            } catch {
                return finding("sealing the plaintext failed: \(error)")
            }
        }
        let disk = FuzzFileSystem([SecretsSchema.fileName: stored])
        let first = open(disk)
        guard let store = first.store else {
            first.releaseLock()
            return disk.bytes(SecretsSchema.fileName) == stored
                ? nil : finding("a store that did not open was changed (\(first.unavailable.map { "\($0)" } ?? "?"))")
        }
        let installation = store.installation
        do {
            try store.close()
        } catch {
            return finding("closing the opened store failed: \(error)")
        }
        first.releaseLock()
        let second = open(disk)
        defer { second.releaseLock() }
        guard let again = second.store else {
            return finding("an opened store did not open again: \(second.unavailable.map { "\($0)" } ?? "?")")
        }
        defer { try? again.close() }
        return again.installation == installation ? nil : finding("the installation changed between two openings")
    }

    private func open(_ disk: FuzzFileSystem) -> SecretStoreOpening {
        SecretStore.open(
            at: location, key: .contents(Self.keyBytes, source: .credential(name: "secrets-key")),
            options: SecretStoreOptions(
                release: "fuzz", scheduler: ManualPersistenceScheduler(), fileSystem: disk.disk,
                now: { FuzzFileSystem.fixedNow }))
    }

    private func finding(_ message: String) -> FuzzFinding {
        FuzzFinding(.secretsFile, message)
    }
}
