import Foundation

/// A fresh directory under the system's temporary directory, for a test's state files; ``remove()`` deletes it
/// with everything in it.
///
/// ```swift
/// let directory = try TemporaryDirectory()
/// defer { directory.remove() }
/// let file = StateFile(path: directory.file("settings.json"), schema: try settingsSchema())
/// ```
public struct TemporaryDirectory: Sendable {
    /// The directory's path.
    public let path: String

    /// Creates a directory named `<prefix>-<UUID>` under the system's temporary directory.
    ///
    /// - Parameter prefix: The start of the directory's name, to tell whose it is.
    public init(prefix: String = "statestore-tests") throws {
        path = FileManager.default.temporaryDirectory.path + "/" + prefix + "-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// The path of the file `name` in the directory.
    public func file(_ name: String) -> String { path + "/" + name }

    /// The names of the directory's entries, sorted.
    public func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: path).sorted() }

    /// Writes `text` as UTF-8 to the file `name`, replacing it.
    public func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: file(name)))
    }

    /// Writes `data` to the file `name`, replacing it.
    public func write(_ name: String, _ data: Data) throws {
        try data.write(to: URL(fileURLWithPath: file(name)))
    }

    /// The bytes of the file `name`.
    public func read(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: file(name))) }

    /// Deletes the directory and everything in it; an error (it is gone already) is ignored.
    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}
