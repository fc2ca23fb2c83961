import Foundation
import Glibc
import StateStore
import StateStoreTesting
import Testing

/// `PosixFileSystem.overwriteInPlace(_:at:padding:durably:)`: small records rewritten without a new file.
@Suite("Overwriting a small file in place")
struct OverwriteInPlaceTests {
    @Test(arguments: [false, true])
    func theBytesAndThePaddingFillTheSameFile(durably: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("record")
        try directory.write("record", String(repeating: "x", count: 40))
        let inode = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? UInt64
        let written = try PosixFileSystem().overwriteInPlace(
            Array("{\"a\":1}".utf8), at: path, padding: 0x20, durably: durably)
        #expect(written)
        #expect(try directory.read("record") == Data(("{\"a\":1}" + String(repeating: " ", count: 33)).utf8))
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? UInt64 == inode)
    }

    @Test func nothingIsWrittenWhereTheBytesDoNotFitOrThereIsNoFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("short", "ab")
        let fileSystem = PosixFileSystem()
        #expect(
            try !fileSystem.overwriteInPlace(
                Array("abc".utf8), at: directory.file("short"), padding: 0x20, durably: true))
        #expect(try directory.read("short") == Data("ab".utf8))
        #expect(try !fileSystem.overwriteInPlace([0x31], at: directory.file("absent"), padding: 0x20, durably: true))
        #expect(!FileManager.default.fileExists(atPath: directory.file("absent")))
    }

    /// Never through a symbolic link, never into a FIFO (an open for writing would wait for a reader).
    @Test func aSymbolicLinkOrAFIFOIsNotOverwritten() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("target", String(repeating: "x", count: 16))
        try FileManager.default.createSymbolicLink(atPath: directory.file("link"), withDestinationPath: "target")
        let fileSystem = PosixFileSystem()
        #expect(try !fileSystem.overwriteInPlace([0x31], at: directory.file("link"), padding: 0x20, durably: false))
        #expect(try directory.read("target") == Data(String(repeating: "x", count: 16).utf8))
        #expect(mkfifo(directory.file("fifo"), 0o600) == 0)
        // O_NONBLOCK: without a reader the open fails with ENXIO at once rather than waiting.
        #expect(throws: FileSystemError.self) {
            try fileSystem.overwriteInPlace([0x31], at: directory.file("fifo"), padding: 0x20, durably: false)
        }
    }

    /// The lock file's owner is overwritten through the lock's own descriptor, from its start whatever the
    /// descriptor's offset, and only where it fits.
    @Test func theLockOwnerIsOverwrittenThroughItsDescriptor() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("lock")
        let fileSystem = PosixFileSystem()
        let descriptor = try fileSystem.lockFile(path, mode: 0o600)
        defer { try? fileSystem.close(descriptor, path: path) }
        #expect(try !fileSystem.overwriteLockOwner(descriptor, "42\n", path: path), "an empty file fits nothing")
        let marker = "4711\nclosed 0123456789abcdef 7 - -\n"
        let cleared = Data(("42\n" + String(repeating: " ", count: marker.utf8.count - 3)).utf8)
        try fileSystem.writeLockOwner(descriptor, marker, path: path)
        #expect(lseek(descriptor, 5, SEEK_SET) == 5)
        #expect(try fileSystem.overwriteLockOwner(descriptor, "42\n", path: path))
        #expect(try directory.read("lock") == cleared)
        #expect(
            try !fileSystem.overwriteLockOwner(
                descriptor, String(repeating: "9", count: marker.utf8.count + 1), path: path))
        #expect(try directory.read("lock") == cleared)
    }
}
