import Foundation
import StateStore
import StateStoreTesting
import Testing

/// The directory target of replication (issue 43): immutable objects created once, listed and read back, and the one
/// object that changes (the lease) replaced only by a conditional write that exactly one of racing writers wins.
@Suite struct DirectoryReplicaTargetTests {
    func name(_ text: String) throws -> ReplicaObjectName { try #require(ReplicaObjectName(text)) }

    @Test func anObjectIsCreatedOnceAndReadBack() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let target = try DirectoryReplicaTarget(directory: directory.file("replica/prefix"))
        let object = try name("0123456789abcdef/snapshot.41.json")
        let bytes = Data(#"{"revision":41}"#.utf8)
        #expect(try target.create(object, bytes: bytes) == .created)
        let read = try #require(try target.read(object))
        #expect(read.bytes == bytes)
        #expect(read.version.rawValue == SHA256Digest.hex(bytes))
        #expect(try target.create(object, bytes: bytes) == .existedWithTheSameBytes)
        #expect(try target.create(object, bytes: Data("other".utf8)) == .existedWithOtherBytes)
        #expect(try target.read(object)?.bytes == bytes, "an object is never overwritten")
        #expect(try target.read(try name("0123456789abcdef/missing")) == nil)
    }

    @Test func aListingHoldsTheObjectsUnderAPrefixInOrderAndNoTemporaryFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let target = try DirectoryReplicaTarget(directory: directory.file("replica"))
        for text in ["b/journal.10.x", "a/snapshot.2.x.json", "b/journal.2.x", "lease"] {
            _ = try target.create(try name(text), bytes: Data(text.utf8))
        }
        // What a crash leaves of a write: a temporary file beside the object.
        try Data("partial".utf8).write(to: URL(fileURLWithPath: directory.file("replica/b/.journal.30.x.tmp-1")))
        #expect(
            try target.list(prefix: "").map(\.name.rawValue) == [
                "a/snapshot.2.x.json", "b/journal.10.x", "b/journal.2.x", "lease",
            ])
        #expect(try target.list(prefix: "b/").map(\.name.rawValue) == ["b/journal.10.x", "b/journal.2.x"])
        #expect(try target.list(prefix: "b/").map(\.byteCount) == [14, 13])
        try target.remove(try name("b/journal.2.x"))
        try target.remove(try name("b/journal.2.x"))
        #expect(try target.list(prefix: "b/").map(\.name.rawValue) == ["b/journal.10.x"])
    }

    @Test func aConditionalReplaceWritesOnlyOverTheVersionItNames() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let target = try DirectoryReplicaTarget(directory: directory.file("replica"))
        let lease = try name("lease")
        let first = try #require(try target.replace(lease, bytes: Data("host A".utf8), ifVersion: nil))
        #expect(try target.replace(lease, bytes: Data("host B".utf8), ifVersion: nil) == nil, "it exists")
        let second = try #require(try target.replace(lease, bytes: Data("host A, renewed".utf8), ifVersion: first))
        #expect(try target.replace(lease, bytes: Data("host B".utf8), ifVersion: first) == nil, "a stale version")
        #expect(try target.read(lease)?.bytes == Data("host A, renewed".utf8))
        #expect(try target.read(lease)?.version == second)
    }

    /// Eight writers, each on a target of its own over the same directory, race to take the lease from the version
    /// they all read: exactly one wins, and the lease holds its bytes.
    @Test func racingWritersOneWins() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let lease = try name("lease")
        let initial = try #require(
            try DirectoryReplicaTarget(directory: directory.file("replica")).replace(
                lease, bytes: Data("nobody".utf8), ifVersion: nil))
        let targets = try (0..<8).map { _ in try DirectoryReplicaTarget(directory: directory.file("replica")) }
        let winners = Winners()
        DispatchQueue.concurrentPerform(iterations: targets.count) { index in
            if (try? targets[index].replace(lease, bytes: Data("writer \(index)".utf8), ifVersion: initial)) != nil {
                winners.add(index)
            }
        }
        let won = winners.all
        #expect(won.count == 1, "\(won)")
        #expect(try targets[0].read(lease)?.bytes == Data("writer \(won.first ?? -1)".utf8))
    }

    @Test func namesAreRelativePlainAndWithoutDotSegments() {
        for valid in ["lease", "0123456789abcdef/snapshot.41.json", "a-b_c.d/e"] {
            #expect(ReplicaObjectName(valid) != nil, "\(valid)")
        }
        for invalid in [
            "", "/a", "a/", "a//b", "a/./b", "a/../b", "..", "a b", "é", String(repeating: "a", count: 513),
        ] {
            #expect(ReplicaObjectName(invalid) == nil, "\(invalid)")
        }
    }

    @Test func aDirectoryThatCannotBeMadeIsAnErrorNamingIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Data().write(to: URL(fileURLWithPath: directory.file("file")))
        #expect {
            try DirectoryReplicaTarget(directory: directory.file("file/replica"))
        } throws: { error in
            "\(error)".contains(directory.file("file/replica"))
        }
    }
}

/// The indices that won, from any thread.
private final class Winners: @unchecked Sendable {
    private let lock = NSLock()
    private var indices: [Int] = []

    func add(_ index: Int) { lock.withLock { indices.append(index) } }
    var all: [Int] { lock.withLock { indices } }
}
