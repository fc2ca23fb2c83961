import Foundation
import Glibc
import StateStore

/// Test-only (`workspaced-testing` with `WSD_TEST_HOOKS=1` and `WSD_TEST_CRASH_LOADING=MARKER`): the real file
/// system, except that reading a file whose bytes contain MARKER aborts the process, as a loader that crashes on
/// some data would. The crash-loop guard's tests start the daemon on such a file.
struct LoaderCrashingFileSystem: FileSystem {
    let base = PosixFileSystem()
    let marker: Data

    /// The file system the daemon uses: this one when asked for, else the real one.
    static func fromEnvironment() -> any FileSystem {
        guard getenv("WSD_TEST_HOOKS").map({ String(cString: $0) }) == "1",
            let marker = getenv("WSD_TEST_CRASH_LOADING").map({ String(cString: $0) }), !marker.isEmpty
        else { return PosixFileSystem() }
        return LoaderCrashingFileSystem(marker: Data(marker.utf8))
    }

    func readFile(at path: String) throws(FileSystemError) -> Data? {
        let data = try base.readFile(at: path)
        if let data, data.range(of: marker) != nil {
            let line = Array("test hook: crashing while loading \(path)\n".utf8)
            _ = line.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
            abort()
        }
        return data
    }

    func createFile(
        in directory: String, prefix: String, mode: UInt32
    ) throws(FileSystemError) -> (descriptor: Int32, path: String) {
        try base.createFile(in: directory, prefix: prefix, mode: mode)
    }

    func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(FileSystemError) -> Int {
        try base.write(descriptor, bytes, path: path)
    }

    func fsync(_ descriptor: Int32, path: String) throws(FileSystemError) { try base.fsync(descriptor, path: path) }

    func close(_ descriptor: Int32, path: String) throws(FileSystemError) { try base.close(descriptor, path: path) }

    func rename(_ source: String, to destination: String) throws(FileSystemError) {
        try base.rename(source, to: destination)
    }

    func link(_ source: String, to destination: String) throws(FileSystemError) {
        try base.link(source, to: destination)
    }

    func unlink(_ path: String) throws(FileSystemError) { try base.unlink(path) }

    func fsyncDirectory(_ path: String) throws(FileSystemError) { try base.fsyncDirectory(path) }

    func contentsOfDirectory(_ path: String) throws(FileSystemError) -> [String] {
        try base.contentsOfDirectory(path)
    }

    func attributes(of path: String) throws(FileSystemError) -> FileAttributes? { try base.attributes(of: path) }

    func lockFile(_ path: String, mode: UInt32) throws(FileSystemError) -> Int32 {
        try base.lockFile(path, mode: mode)
    }

    func overwriteInPlace(
        _ bytes: [UInt8], at path: String, padding: UInt8, durably: Bool
    ) throws(FileSystemError) -> Bool {
        try base.overwriteInPlace(bytes, at: path, padding: padding, durably: durably)
    }

    func overwriteLockOwner(_ descriptor: Int32, _ text: String, path: String) throws(FileSystemError) -> Bool {
        try base.overwriteLockOwner(descriptor, text, path: path)
    }

    func writeLockOwner(_ descriptor: Int32, _ text: String, path: String) throws(FileSystemError) {
        try base.writeLockOwner(descriptor, text, path: path)
    }
}
