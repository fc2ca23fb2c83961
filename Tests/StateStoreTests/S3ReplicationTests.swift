import Crypto
import Foundation
import StateStore
import StateStoreS3
import StateStoreTesting
import TestSupport
import Testing

/// The S3 replica target against a real S3 protocol server (moto's, which `Scripts/with-s3-server.sh` starts for
/// `make test` and names in `WSD_S3_ENDPOINT`): the target's contract, and replication and restore through it.
/// Without the server the suite is skipped, except under `CI=true`, where it fails.
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["WSD_S3_ENDPOINT"] != nil
            || ProcessInfo.processInfo.environment["CI"] == "true",
        "needs WSD_S3_ENDPOINT (Scripts/with-s3-server.sh)"),
    .heavy
)
struct S3ReplicationTests {
    /// A target on a bucket of its own, created.
    static func target(prefix: String = "replica", pageSize: Int? = nil, create: Bool = true) throws -> S3ReplicaTarget
    {
        let endpoint = try #require(
            ProcessInfo.processInfo.environment["WSD_S3_ENDPOINT"].flatMap(URL.init(string:)),
            "WSD_S3_ENDPOINT names no S3 server: run the tests through Scripts/with-s3-server.sh")
        var configuration = S3ReplicaConfiguration(
            bucket: "wsd-" + UUID().uuidString.lowercased().prefix(18), prefix: prefix, endpoint: endpoint,
            credentials: SigV4Credentials(accessKeyID: "testing", secretAccessKey: "testing"),
            requestTimeout: .seconds(10))
        configuration.listPageSize = pageSize
        let target = S3ReplicaTarget(configuration: configuration)
        if create { try target.createBucket() }
        return target
    }

    @Test func theTargetKeepsItsContract() throws {
        let target = try Self.target(pageSize: 2)
        defer { target.shutdown() }
        let name = try #require(ReplicaObjectName("a/one"))
        #expect(try target.read(name) == nil)
        #expect(try target.create(name, bytes: Data("one".utf8)) == .created)
        #expect(try target.create(name, bytes: Data("one".utf8)) == .existedWithTheSameBytes)
        #expect(try target.create(name, bytes: Data("two".utf8)) == .existedWithOtherBytes)
        let (bytes, version) = try #require(try target.read(name))
        #expect(bytes == Data("one".utf8))
        #expect(try target.replace(name, bytes: Data("x".utf8), ifVersion: nil) == nil)
        #expect(try target.replace(name, bytes: Data("x".utf8), ifVersion: ReplicaObjectVersion("\"0\"")) == nil)
        let replaced = try #require(try target.replace(name, bytes: Data("three".utf8), ifVersion: version))
        #expect(replaced != version)
        #expect(try target.read(name)?.bytes == Data("three".utf8))
        for index in 0..<4 { _ = try target.create(try #require(ReplicaObjectName("b/\(index)")), bytes: Data([1])) }
        // Five objects over three pages of two.
        #expect(try target.list(prefix: "").map(\.name.rawValue) == ["a/one", "b/0", "b/1", "b/2", "b/3"])
        #expect(try target.list(prefix: "b/").count == 4)
        try target.remove(name)
        try target.remove(name)
        #expect(try target.read(name) == nil)
    }

    /// An answer's body is collected at its announced size, part after part (S3ResponseCollector): a 5 MiB object,
    /// which arrives in many parts, reads back byte for byte, and an empty one reads back empty.
    @Test func largeAndEmptyObjectsReadBackWhole() throws {
        let target = try Self.target()
        defer { target.shutdown() }
        // Bytes that differ from their neighbours' and from those a part's length away: a part copied to the wrong
        // place shows.
        let large = Data((0..<(5 << 20)).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 24) })
        let largeName = try #require(ReplicaObjectName("large"))
        let emptyName = try #require(ReplicaObjectName("empty"))
        #expect(try target.create(largeName, bytes: large) == .created)
        #expect(try target.create(emptyName, bytes: Data()) == .created)
        let read = try #require(try target.read(largeName)).bytes
        #expect(read.count == large.count)
        // Compared here, not by #expect (which would describe the difference of two 5 MiB collections).
        let same = read == large
        let firstDifference = same ? nil : zip(read, large).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(same, "the bytes read differ from the object's, first at offset \(firstDifference ?? read.count)")
        #expect(try target.read(emptyName)?.bytes == Data())
    }

    /// Replicated pass after pass to S3, the host lost: a restore from the bucket holds every change, and the state
    /// at three revisions.
    @Test func aStateComesBackFromTheBucket() throws {
        let target = try Self.target()
        defer { target.shutdown() }
        var source = try ReplicatorTests.Source(segmentBytes: 1 << 20, target: target)
        defer { source.remove() }
        for round in 0..<4 {
            try source.work(from: 1 + round * 15, count: 15, flushEvery: 20)
            let status = source.replicator.sync()
            #expect(status.lastError == nil)
            #expect(status.replicatedRevision == source.state.status.revision)
        }
        let revision = source.state.status.revision
        source.file.unlock()
        let (report, titles, restored) = try ReplicatorTests.restoreAndOpen(target)
        defer { restored.remove() }
        #expect(report.revision == revision)
        #expect(titles == source.expected[revision])
        for point: UInt64 in [7, 33, 58] {
            let (report, titles, restored) = try ReplicatorTests.restoreAndOpen(target, at: .revision(point))
            defer { restored.remove() }
            #expect(report.revision == point)
            #expect(titles == source.expected[point])
        }
    }

    /// The lease is a conditional write on the store: a second installation is refused, a take-over moves it.
    @Test func theLeaseHoldsOnTheStore() throws {
        let target = try Self.target()
        defer { target.shutdown() }
        var source = try ReplicatorTests.Source(target: target)
        defer { source.remove() }
        try source.work(from: 1, count: 5)
        #expect(source.replicator.sync().holdsLease)
        let other = try TemporaryDirectory()
        defer { other.remove() }
        let second = ReplicatorTests.replicator(other, target, installation: "host-b")
        let refused = second.sync()
        #expect(!refused.holdsLease && refused.heldBy?.installation == "host-a")
        try second.takeOver()
        #expect(!source.replicator.sync().holdsLease)
    }

    /// An object whose bytes changed in the store, and a piece that never arrived.
    @Test func damagedAndMissingObjectsAreFound() throws {
        let target = try Self.target()
        defer { target.shutdown() }
        var source = try ReplicatorTests.Source(segmentBytes: 1 << 20, target: target)
        defer { source.remove() }
        try source.work(from: 1, count: 8, flushEvery: 100)
        source.replicator.sync()
        let reached = source.state.status.revision
        try source.work(from: 9, count: 8, flushEvery: 100)
        source.replicator.sync()
        let pieces = try target.list(prefix: "").map(\.name).filter { $0.rawValue.split(separator: "/").count == 3 }
        #expect(pieces.count == 2, "\(pieces)")
        let last = try #require(pieces.last)
        // The last piece, torn: the restore stops before it.
        try target.remove(last)
        let (report, titles, restored) = try ReplicatorTests.restoreAndOpen(target)
        defer { restored.remove() }
        #expect(report.revision == reached)
        #expect(titles == source.expected[reached])
        // The first piece, its bytes changed: refused by name.
        let first = try #require(pieces.first)
        let (bytes, version) = try #require(try target.read(first))
        var damaged = bytes
        damaged[damaged.count - 1] ^= 1
        #expect(try target.replace(first, bytes: damaged, ifVersion: version) != nil)
        let empty = try TemporaryDirectory()
        defer { empty.remove() }
        #expect {
            try ReplicaRestore.restore(from: target, stateFilePath: empty.file("notebook.json"))
        } throws: { error in
            (error as? ReplicaRestoreError)?.object == first.rawValue
        }
    }

    /// A bucket that does not exist and a store that does not answer are reported by the pass, never fatal.
    @Test func aStoreThatRefusesOrIsDownIsReported() throws {
        let missing = try Self.target(create: false)
        defer { missing.shutdown() }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let status = ReplicatorTests.replicator(directory, missing).sync()
        #expect(status.lastError?.contains("NoSuchBucket") == true, "\(status)")
        // A port nobody listens on.
        let down = S3ReplicaTarget(
            configuration: S3ReplicaConfiguration(
                bucket: "nobody", endpoint: URL(string: "http://127.0.0.1:9")!,
                credentials: SigV4Credentials(accessKeyID: "a", secretAccessKey: "b"), requestTimeout: .seconds(2)))
        defer { down.shutdown() }
        let downStatus = ReplicatorTests.replicator(directory, down).sync()
        #expect(downStatus.lastError != nil && downStatus.consecutiveFailures == 1, "\(downStatus)")
    }
}

/// Client-side encryption over a directory target: nothing in the clear, a restore with the key, none without.
@Suite struct EncryptedReplicaTests {
    @Test func theReplicaHoldsNoPlaintextAndNeedsTheKey() throws {
        let replica = try TemporaryDirectory()
        defer { replica.remove() }
        let key = SymmetricKey(size: .bits256)
        let target = EncryptedReplicaTarget(try DirectoryReplicaTarget(directory: replica.path), key: key)
        var source = try ReplicatorTests.Source(segmentBytes: 1 << 20, target: target)
        defer { source.remove() }
        try source.work(from: 1, count: 12, flushEvery: 5)
        let status = source.replicator.sync()
        #expect(status.lastError == nil)
        // A second pass with nothing new writes nothing, and objects created again compare equal once opened.
        #expect(source.replicator.sync().objectsWritten == status.objectsWritten)
        let name = try #require(try target.list(prefix: "").first { $0.name.rawValue.contains("snapshot") }?.name)
        let plain = try #require(try target.read(name)).bytes
        #expect(try target.create(name, bytes: plain) == .existedWithTheSameBytes)
        for path in try FileManager.default.subpathsOfDirectory(atPath: replica.path) {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: replica.path + "/" + path, isDirectory: &isDirectory)
            guard !isDirectory.boolValue, path != ".lock", path != "lease.json" else { continue }
            let bytes = try replica.read(path)
            #expect(bytes.firstRange(of: Data("note ".utf8)) == nil, "\(path) holds plaintext")
            #expect(bytes.starts(with: Data("WSRE".utf8)), "\(path)")
        }
        let revision = source.state.status.revision
        let (report, titles, restored) = try ReplicatorTests.restoreAndOpen(target)
        defer { restored.remove() }
        #expect(report.revision == revision)
        #expect(titles == source.expected[revision])
        let wrongKey = EncryptedReplicaTarget(
            try DirectoryReplicaTarget(directory: replica.path), key: SymmetricKey(size: .bits256))
        let empty = try TemporaryDirectory()
        defer { empty.remove() }
        #expect {
            try ReplicaRestore.restore(from: wrongKey, stateFilePath: empty.file("notebook.json"))
        } throws: { error in
            "\(error)".contains("does not open with this replica-key")
        }
    }

    /// swift-crypto's digest, which the daemon uses, gives the built-in one's names.
    @Test func bothDigestsAgree() {
        for count in [0, 1, 55, 56, 63, 64, 65, 1000, 1 << 20] {
            let bytes = Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
            #expect(ReplicaDigest.crypto.sha256Hex(bytes) == ReplicaDigest.builtIn.sha256Hex(bytes), "\(count) bytes")
        }
        #expect(
            ReplicaDigest.crypto.sha256Hex(Data("abc".utf8))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func credentialFilesGiveTheKey() {
        let raw = Data((0..<32).map { UInt8($0) })
        let hex = raw.map { String(format: "%02x", $0) }.joined()
        for form in [raw, Data((hex + "\n").utf8), Data(raw.base64EncodedString().utf8)] {
            let key = EncryptedReplicaTarget.key(fromCredential: form)
            #expect(key.map { $0.withUnsafeBytes { Data($0) } } == raw)
        }
        #expect(EncryptedReplicaTarget.key(fromCredential: Data("short".utf8)) == nil)
        #expect(EncryptedReplicaTarget.key(fromCredential: Data(repeating: 0x41, count: 31)) == nil)
    }
}
