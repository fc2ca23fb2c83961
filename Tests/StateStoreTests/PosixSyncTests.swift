import Foundation
import Glibc
import StateStore
import StateStoreTesting
import Testing

/// `PosixFileSystem.syncFileSystem(containing:)` (`syncfs(2)`, found at run time) and `createDirectory`.
@Suite("Syncing a file system, creating a directory")
struct PosixSyncTests {
    @Test func aDirectoryIsSyncedAndAMissingOneIsNamed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fileSystem = PosixFileSystem()
        try Data("x".utf8).write(to: URL(fileURLWithPath: directory.file("a")))
        try fileSystem.syncFileSystem(containing: directory.path)
        #expect {
            try fileSystem.syncFileSystem(containing: directory.file("missing"))
        } throws: { error in
            (error as? FileSystemError)?.errno == ENOENT
        }
    }

    @Test func createDirectoryMakesItOnceAndAcceptsItAgain() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fileSystem = PosixFileSystem()
        try fileSystem.createDirectory(directory.file("h"), mode: 0o700)
        try fileSystem.createDirectory(directory.file("h"), mode: 0o700)
        var status = stat()
        #expect(stat(directory.file("h"), &status) == 0 && status.st_mode & 0o777 == 0o700)
        #expect {
            try fileSystem.createDirectory(directory.file("no/such/parent"), mode: 0o700)
        } throws: { error in
            (error as? FileSystemError)?.errno == ENOENT
        }
    }
}
