import Foundation
import Glibc
import StateStore
import StateStoreTesting
import Testing

/// `PosixFileSystem.readFile(at:)`: the whole file, in a buffer no larger than the file.
@Suite("Reading a state file")
struct PosixReadFileTests {
    /// A load holds the file's bytes while it decodes; a buffer grown to look for more than `fstat` reported
    /// allocated 1.9 times the file (massif: 7.5 MB of heap for a 4 MB workspace).
    @Test(arguments: [1 << 20, 3 * (1 << 20) + 17])
    func theBytesComeBackInABufferTheSizeOfTheFile(size: Int) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // From the kernel: a byte at a time through a random number generator took a thread of the cooperative
        // pool for seconds in a debug build, and with it every other test's progress.
        let urandom = try #require(FileHandle(forReadingAtPath: "/dev/urandom"))
        defer { try? urandom.close() }
        let bytes = try #require(try urandom.read(upToCount: size))
        #expect(bytes.count == size)
        try directory.write("state.json", bytes)
        let read = try #require(try PosixFileSystem().readFile(at: directory.file("state.json")))
        #expect(read == bytes)
        let allocated = try #require(read.withUnsafeBytes { Self.usableSize(of: $0.baseAddress) })
        #expect(allocated >= size)
        #expect(allocated < size + 64 * 1024, "a \(size)-byte file was read into \(allocated) bytes")
    }

    /// glibc's `malloc_usable_size` (not in the Glibc module: looked up by name): the bytes allocated for a block.
    static func usableSize(of pointer: UnsafeRawPointer?) -> Int? {
        typealias UsableSize = @convention(c) (UnsafeMutableRawPointer?) -> Int
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_usable_size") else { return nil }
        return unsafeBitCast(symbol, to: UsableSize.self)(UnsafeMutableRawPointer(mutating: pointer))
    }

    /// A file whose size `fstat` does not know (`/proc`) is read to its end all the same.
    @Test func aFileThatReportsNoSizeIsReadToItsEnd() throws {
        let read = try #require(try PosixFileSystem().readFile(at: "/proc/self/status"))
        let text = String(decoding: read, as: UTF8.self)
        #expect(text.hasPrefix("Name:"))
        #expect(text.contains("\nVmRSS:"))
        #expect(text.hasSuffix("\n"))
    }

    @Test func aMissingFileIsNil() throws {
        #expect(try PosixFileSystem().readFile(at: "/nonexistent/state.json") == nil)
    }
}
