import Foundation
import StateStore
import StateStoreSample

/// A fresh directory under the system temporary directory, removed by `remove()`.
struct TemporaryDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.path + "/statestore-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: path).sorted() }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: file(name)))
    }

    func write(_ name: String, _ data: Data) throws {
        try data.write(to: URL(fileURLWithPath: file(name)))
    }

    func read(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: file(name))) }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

enum Fixtures {
    static var root: URL { Bundle.module.url(forResource: "Fixtures", withExtension: nil)! }
    static var notebook: URL { root.appendingPathComponent("notebook") }

    static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: root.appendingPathComponent(relativePath))
    }
}

/// Parses JSON bytes into Foundation objects for structural assertions.
func jsonObject(_ data: Data) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as! [String: Any]
}

/// A fixed clock for names of quarantined files and backups.
let fixedNow: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_795_000_000) }

func notebookFile(
    _ directory: TemporaryDirectory, name: String = "notebook.json",
    configuration: StateFileConfiguration = StateFileConfiguration(),
    fileSystem: any FileSystem = PosixFileSystem()
) throws -> StateFile<Notebook> {
    StateFile(
        path: directory.file(name), schema: try NotebookSchema.make(), configuration: configuration,
        fileSystem: fileSystem, now: fixedNow)
}
