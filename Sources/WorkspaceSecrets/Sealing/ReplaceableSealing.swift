import FoundationEssentials
import StateStore
import Synchronization

/// A sealing whose key is chosen after the ``StateStore/StateFile`` is made: the store's lock is taken before the
/// key is looked for (and a key file created), and a rekey loads under the old key and saves under the new one.
final class ReplaceableSealing: StateFileSealing {
    private let current = Mutex<SecretsSealing?>(nil)

    /// No key yet: opening and sealing fail until ``use(_:)``.
    init() {}

    /// Seals and opens under `key` from now on.
    func use(_ key: SecretsKey) {
        current.withLock { $0 = SecretsSealing(key: key) }
    }

    /// The key in use.
    var key: SecretsKey? { current.withLock { $0?.key } }

    func open(_ stored: Data) throws -> Data {
        guard let sealing = current.withLock({ $0 }) else { throw NoKey() }
        return try sealing.open(stored)
    }

    func seal(_ plaintext: Data) throws -> Data {
        guard let sealing = current.withLock({ $0 }) else { throw NoKey() }
        return try sealing.seal(plaintext)
    }

    /// Opening or sealing before a key was chosen.
    struct NoKey: Error, CustomStringConvertible {
        var description: String { "no key was chosen" }
    }
}
