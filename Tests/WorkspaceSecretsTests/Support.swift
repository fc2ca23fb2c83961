import Foundation
import StateStore
import StateStoreTesting
import Synchronization
import Testing

@testable import WorkspaceSecrets

enum Fixtures {
    static var root: URL { Bundle.module.url(forResource: "Fixtures", withExtension: nil)! }
    static var versions: URL { root.appendingPathComponent("versions") }
    static var edge: URL { root.appendingPathComponent("edge") }

    static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: root.appendingPathComponent(relativePath))
    }
}

/// A state directory of its own, removed when the test is done.
final class SecretsDirectory: Sendable {
    let path: String
    let clock: TestClock

    init() throws {
        path = FileManager.default.temporaryDirectory.path + "/wsd-secrets-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        clock = TestClock()
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    var location: SecretsLocation { SecretsLocation(directory: path) }

    /// Options with a manual scheduler (no timed save unless a test waits for one) and the test clock.
    func options(release: String = "9.9.9") -> SecretStoreOptions {
        SecretStoreOptions(release: release, scheduler: ManualPersistenceScheduler(), now: { [clock] in clock.now })
    }

    /// Opens the store (keys from the key file unless `key` is given).
    func open(_ key: ProvidedKey = .none) -> SecretStoreOpening {
        SecretStore.open(at: location, key: key, options: options())
    }

    /// Opens, requires an open store, and returns it with the opening.
    func openStore(
        _ key: ProvidedKey = .none, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (SecretStore, SecretStoreOpening) {
        let opening = open(key)
        let store = try #require(
            opening.store, "not open: \(opening.unavailable?.message ?? "?")", sourceLocation: sourceLocation)
        return (store, opening)
    }

    func read(_ name: String) -> Data? { FileManager.default.contents(atPath: path + "/" + name) }

    func write(_ name: String, _ data: Data) throws {
        try data.write(to: URL(fileURLWithPath: path + "/" + name))
    }

    func remove(_ name: String) throws { try FileManager.default.removeItem(atPath: path + "/" + name) }

    func names() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }

    func mode(_ name: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path + "/" + name))?[.posixPermissions] as? Int
    }

    /// `bytes` sealed under `key` as the store's file.
    func writeSealed(_ plaintext: Data, key: SecretsKey) throws {
        try write(SecretsSchema.fileName, try SecretsSealing(key: key).seal(plaintext))
    }

    /// The key in the key file.
    func keyFileKey() throws -> SecretsKey {
        try SecretsKey.parse(Array(try #require(read("secrets.key"))), source: "test")
    }
}

/// A clock a test moves by hand.
final class TestClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_795_000_000))

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 += seconds }
    }
}

/// A credential holding `key` (base64 text, as `systemd-creds` would pass it).
func credential(_ key: SecretsKey) -> ProvidedKey {
    .contents(Array(key.fileContents), source: .credential(name: "secrets-key"))
}
