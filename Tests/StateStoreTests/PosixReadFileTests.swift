import Foundation
import Glibc
import StateStore
import StateStoreTesting
import TestSupport
import Testing

/// `PosixFileSystem.readFile(at:)` and `readBytes(at:)`: the whole file, in a buffer no larger than the file.
@Suite("Reading a state file", .heavy)
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
        // The array a journal's segment is read into, the same bytes with no copy in between.
        let array = try #require(try PosixFileSystem().readBytes(at: directory.file("state.json")))
        #expect(array.elementsEqual(bytes))
        #expect(array.capacity < size + 64 * 1024, "a \(size)-byte file was read into \(array.capacity) bytes")
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
        let array = try #require(try PosixFileSystem().readBytes(at: "/proc/self/status"))
        #expect(String(decoding: array, as: UTF8.self).hasPrefix("Name:"))
        #expect(String(decoding: array, as: UTF8.self).contains("\nVmRSS:"))
    }

    /// A pipe reports no size either: what it carries past the first read comes in 64 KiB pieces, each appended
    /// once, in order (the pieces' buffer is not zeroed, so a piece read short must add only what it read).
    @Test func aPipeIsReadToItsEndInPieces() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        defer { close(readEnd) }
        let bytes = (0..<(3 * 65_536 + 4_099)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        let writer = Thread {
            bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    // Writes of uneven sizes, so that reads come back short.
                    let count = write(
                        writeEnd, buffer.baseAddress! + offset, min(1_000 + offset % 5_000, buffer.count - offset))
                    if count <= 0 { break }
                    offset += count
                }
            }
            close(writeEnd)
        }
        writer.start()
        let read = try #require(try PosixFileSystem().readFile(at: "/proc/self/fd/\(readEnd)"))
        #expect(read.count == bytes.count)
        #expect(read.elementsEqual(bytes))
    }

    /// A load's read refuses what is not a regular file: a FIFO at once, without waiting for a writer (the thread
    /// here opens one after a second, which would let a waiting read go on and return no bytes), and a directory.
    @Test func aLoadRefusesAFIFOWithoutWaitingAndADirectory() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fifo = directory.file("state.json")
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            sleep(1)
            let descriptor = open(fifo, O_WRONLY | O_NONBLOCK)
            if descriptor >= 0 { close(descriptor) }
        }
        writer.start()
        #expect(throws: FileSystemError.notARegularFile(path: fifo, mode: S_IFIFO)) {
            try PosixFileSystem().loadBytes(at: fifo)
        }
        #expect(throws: FileSystemError.notARegularFile(path: directory.path, mode: S_IFDIR)) {
            try PosixFileSystem().loadBytes(at: directory.path)
        }
        #expect(
            FileSystemError.notARegularFile(path: fifo, mode: S_IFIFO | 0o600).description
                == "open \(fifo): a FIFO, not a regular file (errno \(EINVAL))")
    }

    @Test func aMissingFileIsNil() throws {
        #expect(try PosixFileSystem().readFile(at: "/nonexistent/state.json") == nil)
        #expect(try PosixFileSystem().readBytes(at: "/nonexistent/state.json") == nil)
    }

    /// A file system that does not read into an array itself (a test's) gives `readFile(at:)`'s bytes, so that its
    /// faults reach the readers of journal segments too.
    @Test func theDefaultReadsThroughReadFile() throws {
        struct Fixed: FileSystem {
            var real = PosixFileSystem()
            func readFile(at path: String) throws(FileSystemError) -> Data? { Data("fixed".utf8) }
            func createFile(
                in directory: String, prefix: String, mode: UInt32
            ) throws(FileSystemError) -> (
                descriptor: Int32, path: String
            ) { try real.createFile(in: directory, prefix: prefix, mode: mode) }
            func write(
                _ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, path: String
            ) throws(FileSystemError)
                -> Int
            { try real.write(descriptor, bytes, path: path) }
            func fsync(_ descriptor: Int32, path: String) throws(FileSystemError) {}
            func close(_ descriptor: Int32, path: String) throws(FileSystemError) {}
            func rename(_ source: String, to destination: String) throws(FileSystemError) {}
            func link(_ source: String, to destination: String) throws(FileSystemError) {}
            func unlink(_ path: String) throws(FileSystemError) {}
            func fsyncDirectory(_ path: String) throws(FileSystemError) {}
            func contentsOfDirectory(_ path: String) throws(FileSystemError) -> [String] { [] }
            func attributes(of path: String) throws(FileSystemError) -> FileAttributes? { nil }
            func lockFile(_ path: String, mode: UInt32) throws(FileSystemError) -> Int32 { -1 }
            func writeLockOwner(_ descriptor: Int32, _ text: String, path: String) throws(FileSystemError) {}
        }
        #expect(try Fixed().readBytes(at: "/proc/self/status") == Array("fixed".utf8))
        var pieces: [[UInt8]] = []
        #expect(try Fixed().readPieces(at: "/proc/self/status", pieceSize: 2) { pieces.append(Array($0)) } == 5)
        #expect(pieces == [Array("fixed".utf8)])
    }

    /// `readPieces` gives the file in order, no piece larger than asked, to its end (past what `fstat` reports for a
    /// file of `/proc`); a missing file is nil.
    @Test func piecesGiveTheWholeFileInOrder() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bytes = Data((0..<(5 * 4_096 + 123)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) })
        try directory.write("state.json", bytes)
        var pieces: [[UInt8]] = []
        let count = try PosixFileSystem().readPieces(at: directory.file("state.json"), pieceSize: 4_096) {
            pieces.append(Array($0))
        }
        #expect(count == bytes.count)
        #expect(pieces.allSatisfy { $0.count <= 4_096 })
        #expect(pieces.count >= 6)
        #expect(Data(pieces.joined()) == bytes)
        var status: [UInt8] = []
        let statusCount = try PosixFileSystem().readPieces(at: "/proc/self/status", pieceSize: 64) {
            status.append(contentsOf: $0)
        }
        #expect(statusCount == status.count)
        #expect(String(decoding: status, as: UTF8.self).contains("\nVmRSS:"))
        // fstat says 0 bytes: the buffer is sized for a small file, and the reads go on to the end all the same.
        var large: [UInt8] = []
        let largeCount = try PosixFileSystem().readPieces(at: "/proc/self/status", pieceSize: 1 << 20) {
            large.append(contentsOf: $0)
        }
        #expect(largeCount == large.count && large.count > 1_000)
        #expect(String(decoding: large, as: UTF8.self).contains("\nVmRSS:"))
        var whole: [[UInt8]] = []
        _ = try PosixFileSystem().readPieces(at: directory.file("state.json"), pieceSize: 1 << 20) {
            whole.append(Array($0))
        }
        #expect(whole.count == 1 && Data(whole[0]) == bytes, "a file smaller than a piece is one piece")
        #expect(try PosixFileSystem().readPieces(at: "/nonexistent/state.json", pieceSize: 64) { _ in } == nil)
    }
}
