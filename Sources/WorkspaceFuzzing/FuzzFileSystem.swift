import Foundation
import StateStore
import StateStoreTesting

/// The in-memory disk each fuzz input starts from (StateStoreTesting's ``PowerLossFileSystem``, whose power is
/// never cut): no real files, so an input costs microseconds and leaves nothing behind.
struct FuzzFileSystem {
    /// The directory the state lives in.
    static let directory = "/fuzz"
    /// The clock that names quarantined copies and backups.
    static let fixedNow = Date(timeIntervalSince1970: 1_795_000_000)

    let disk: PowerLossFileSystem

    /// A disk holding `files` (names in ``directory``).
    init(_ files: [String: Data]) {
        disk = PowerLossFileSystem(
            files: Dictionary(uniqueKeysWithValues: files.map { (Self.directory + "/" + $0.key, $0.value) }))
    }

    /// The bytes of `name`, or `nil` when there is no such file.
    func bytes(_ name: String) -> Data? {
        try? disk.readFile(at: Self.directory + "/" + name)
    }

    /// The names in the directory that start with `prefix`, sorted.
    func names(startingWith prefix: String) -> [String] {
        ((try? disk.contentsOfDirectory(Self.directory)) ?? []).filter { $0.hasPrefix(prefix) }.sorted()
    }
}
