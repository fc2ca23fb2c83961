import Dispatch
import WorkspaceSecrets

/// The secret store's opening during the start: begun on a Dispatch worker while the workspace loads when the
/// store is installed (it does not depend on the workspace, and its locking, reading and unsealing then cost the
/// start nothing), otherwise done when it is asked for, after the load.
///
/// The first start creates the installation and its key durably; that waits for the load, so that a start that
/// refuses its state file creates nothing.
struct PendingSecretStore: Sendable {
    private let begun: OnceValue<SecretStoreOpening>?
    private let open: @Sendable () -> SecretStoreOpening

    /// Begins `open` on another thread when `installed`; otherwise keeps it for ``opening()``.
    init(installed: Bool, open: @escaping @Sendable () -> SecretStoreOpening) {
        self.open = open
        guard installed else {
            begun = nil
            return
        }
        let begun = OnceValue<SecretStoreOpening>()
        self.begun = begun
        DispatchQueue.global(qos: .userInitiated).async { begun.set(open()) }
    }

    /// The store's opening: waits for the one begun beside the load, or opens it now.
    func opening() async -> SecretStoreOpening {
        guard let begun else { return open() }
        return await begun.value
    }

    /// For a start that fails: waits for an opening begun beside the load, closes the store it opened and releases
    /// its lock, so that the files are left as a clean stop leaves them, never half written; opens nothing
    /// otherwise.
    func settle() async {
        guard let begun else { return }
        let opening = await begun.value
        try? opening.store?.close()
        opening.releaseLock()
    }
}
