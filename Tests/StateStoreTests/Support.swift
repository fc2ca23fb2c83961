import Foundation
import StateStore
import StateStoreSample
import StateStoreTesting

/// StateStoreTesting's temporary directory, for every file of these tests (most import only StateStore).
typealias TemporaryDirectory = StateStoreTesting.TemporaryDirectory

enum Fixtures {
    static var root: URL { Bundle.module.url(forResource: "Fixtures", withExtension: nil)! }
    static var notebook: URL { root.appendingPathComponent("notebook") }

    static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: root.appendingPathComponent(relativePath))
    }
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
