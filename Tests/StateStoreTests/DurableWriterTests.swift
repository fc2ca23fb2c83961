import Foundation
import StateStore
import StateStoreTesting
import Testing

@Suite("Durable atomic replace")
struct DurableWriterTests {
    static let old = Data(#"{"old":true}"#.utf8)
    static let new = Data(String(repeating: "n", count: 100_000).utf8)

    /// Each failure before the rename: the old file stays byte-identical and no temporary file remains.
    static let failuresBeforeRename: [(FaultInjectingFileSystem.Operation, DurableWriteError.Stage, Int32)] = [
        (.create, .create, EACCES),
        (.write, .write, ENOSPC),
        (.fsync, .fsync, EIO),
        (.close, .close, EIO),
        (.rename, .rename, EIO),
    ]

    @Test(arguments: failuresBeforeRename)
    func aFailureBeforeTheRenameLeavesTheOldFileAndNoTemporaryFile(
        operation: FaultInjectingFileSystem.Operation, stage: DurableWriteError.Stage, errno: Int32
    ) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("state.json", Self.old)
        let fileSystem = FaultInjectingFileSystem()
        fileSystem.inject(operation, errno: errno)
        let writer = DurableWriter(fileSystem: fileSystem)
        #expect {
            try writer.write(Self.new, to: directory.file("state.json"))
        } throws: { error in
            guard let error = error as? DurableWriteError else { return false }
            return error.stage == stage && error.underlying.errno == errno && !error.newContentMayBeVisible
        }
        #expect(try directory.read("state.json") == Self.old)
        #expect(try directory.names() == ["state.json"])
    }

    @Test func aShortWriteIsContinued() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fileSystem = FaultInjectingFileSystem()
        fileSystem.injectShortWrite(maxBytes: 10)
        fileSystem.injectShortWrite(maxBytes: 1, occurrence: 2)
        try DurableWriter(fileSystem: fileSystem).write(Self.new, to: directory.file("state.json"))
        #expect(try directory.read("state.json") == Self.new)
        #expect(fileSystem.count(of: .write) >= 3)
    }

    @Test func aShortWriteFollowedByAFailureLeavesTheOldFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("state.json", Self.old)
        let fileSystem = FaultInjectingFileSystem()
        fileSystem.injectShortWrite(maxBytes: 100)
        fileSystem.inject(.write, errno: ENOSPC, occurrence: 2)
        #expect(throws: DurableWriteError.self) {
            try DurableWriter(fileSystem: fileSystem).write(Self.new, to: directory.file("state.json"))
        }
        #expect(try directory.read("state.json") == Self.old)
        #expect(try directory.names() == ["state.json"])
    }

    @Test func aDirectorySyncFailureSaysTheNewContentMayBeVisible() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("state.json", Self.old)
        let fileSystem = FaultInjectingFileSystem()
        fileSystem.inject(.fsyncDirectory, errno: EIO)
        #expect {
            try DurableWriter(fileSystem: fileSystem).write(Self.new, to: directory.file("state.json"))
        } throws: { error in
            (error as? DurableWriteError)?.stage == .directorySync
                && (error as? DurableWriteError)?.newContentMayBeVisible == true
        }
        #expect(try directory.names() == ["state.json"], "no temporary file remains")
    }

    @Test func theCallsComeInTheDurableOrder() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fileSystem = FaultInjectingFileSystem()
        try DurableWriter(fileSystem: fileSystem).write(Self.new, to: directory.file("state.json"))
        var sequence: [FaultInjectingFileSystem.Operation] = []
        for call in fileSystem.calls where sequence.last != call.operation {
            sequence.append(call.operation)
        }
        #expect(sequence == [.create, .write, .fsync, .close, .rename, .fsyncDirectory])
        let temporary = try #require(fileSystem.calls.first { $0.operation == .fsync }?.path)
        #expect(temporary.hasPrefix(directory.file(".state.json.tmp-")), "the temporary file is in the same directory")
    }

    @Test func aRetryAfterAnFsyncFailureUsesANewTemporaryFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fileSystem = FaultInjectingFileSystem()
        fileSystem.inject(.fsync, errno: EIO)
        let writer = DurableWriter(fileSystem: fileSystem)
        #expect(throws: DurableWriteError.self) { try writer.write(Self.new, to: directory.file("state.json")) }
        try writer.write(Self.new, to: directory.file("state.json"))
        let fsyncs = fileSystem.calls.filter { $0.operation == .fsync }
        #expect(fsyncs.count == 2)
        #expect(fsyncs[0].path != fsyncs[1].path, "fsync is never retried on the descriptor that failed")
        #expect(try directory.read("state.json") == Self.new)
    }

    @Test(arguments: [UInt32(0o600), 0o640])
    func theFileModeIsExact(mode: UInt32) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let previous = umask(0o077)
        defer { umask(previous) }
        try DurableWriter(mode: mode).write(Self.old, to: directory.file("state.json"))
        let attributes = try #require(try PosixFileSystem().attributes(of: directory.file("state.json")))
        #expect(attributes.mode == mode)
    }

    @Test func emptyDataIsStillSynced() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fileSystem = FaultInjectingFileSystem()
        try DurableWriter(fileSystem: fileSystem).write(Data(), to: directory.file("state.json"))
        #expect(fileSystem.count(of: .fsync) == 1)
        #expect(try directory.read("state.json").isEmpty)
    }
}

@Suite("Durable replace filled in pieces")
struct DurableWriterFillingTests {
    @Test func thePiecesBecomeTheFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("state.json", DurableWriterTests.old)
        let pieces = (0..<50).map { Data("piece \($0);".utf8) }
        let replaced = try DurableWriter().write(to: directory.file("state.json")) { output throws(DurableWriteError) in
            for piece in pieces { try output.write(piece) }
            return output.byteCount == pieces.reduce(0) { $0 + $1.count }
        }
        #expect(replaced)
        #expect(try directory.read("state.json") == pieces.reduce(Data(), +))
        #expect(try directory.names() == ["state.json"])
    }

    @Test func aFillThatGivesUpLeavesTheOldFileAndNoTemporaryFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("state.json", DurableWriterTests.old)
        let fileSystem = FaultInjectingFileSystem()
        let replaced = try DurableWriter(fileSystem: fileSystem).write(to: directory.file("state.json")) {
            output throws(DurableWriteError) in
            try output.write(DurableWriterTests.new)
            return false
        }
        #expect(!replaced)
        #expect(fileSystem.count(of: .write) == 1 && fileSystem.count(of: .rename) == 0)
        #expect(try directory.read("state.json") == DurableWriterTests.old)
        #expect(try directory.names() == ["state.json"])
    }
}

/// `DurableWriter.create(_:at:)`: the same protocol, the temporary file linked to a name that must not exist.
@Suite("Durable exclusive create")
struct DurableCreateTests {
    @Test func aNewFileIsCreatedAndAnExistingOneNeverReplaced() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let writer = DurableWriter(mode: 0o640)
        #expect(try writer.create(DurableWriterTests.new, at: directory.file("object")))
        #expect(try directory.read("object") == DurableWriterTests.new)
        #expect(
            try FileManager.default.attributesOfItem(atPath: directory.file("object"))[.posixPermissions] as? Int
                == 0o640)
        #expect(try !writer.create(DurableWriterTests.old, at: directory.file("object")))
        #expect(try directory.read("object") == DurableWriterTests.new)
        #expect(try directory.names() == ["object"], "no temporary file stays")
    }

    @Test func aFailedLinkLeavesNoFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fileSystem = FaultInjectingFileSystem()
        fileSystem.inject(.link, errno: EIO)
        #expect {
            try DurableWriter(fileSystem: fileSystem).create(DurableWriterTests.new, at: directory.file("object"))
        } throws: { error in
            guard let error = error as? DurableWriteError else { return false }
            return error.stage == .rename && error.underlying.errno == EIO && !error.newContentMayBeVisible
        }
        #expect(try directory.names() == [])
    }
}
