import Dispatch
import Foundation
import StateStoreTesting
import Synchronization
import Testing

@testable import StateStore

/// The snapshot a restore of the latest state reads beside the journal's pieces (``ReplicaPrefetch``): the same checked
/// bytes as a read in turn, the same refusals, and no wait for a pool thread that never comes.
@Suite struct ReplicaPrefetchTests {
    func target(_ directory: TemporaryDirectory) throws -> (DirectoryReplicaTarget, ReplicaObjectName, Data) {
        let target = try DirectoryReplicaTarget(directory: directory.file("replica"))
        let name = try #require(ReplicaObjectName("0123456789abcdef/snapshot.7.x.json"))
        let bytes = Data(#"{"revision":7}"#.utf8)
        _ = try target.create(name, bytes: bytes)
        return (target, name, bytes)
    }

    @Test func thePrefetchGivesTheCheckedBytesOrTheRefusal() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (target, name, bytes) = try target(directory)
        let digest = ReplicaDigest.builtIn
        let prefetch = ReplicaPrefetch(name, sha256: SHA256Digest.hex(bytes), from: target, digest: digest)
        #expect(try prefetch.bytes() == bytes)
        #expect(try prefetch.bytes() == bytes, "asked again, the same bytes")
        let wrong = ReplicaPrefetch(name, sha256: String(repeating: "0", count: 64), from: target, digest: digest)
        let refused = #expect(throws: ReplicaRestoreError.self) { try wrong.bytes() }
        #expect(refused?.reason.hasSuffix("refused") == true, "\(String(describing: refused))")
        let missing = try #require(ReplicaObjectName("0123456789abcdef/snapshot.8.x.json"))
        let gone = ReplicaPrefetch(missing, sha256: SHA256Digest.hex(bytes), from: target, digest: digest)
        let failure = #expect(throws: ReplicaRestoreError.self) { try gone.bytes() }
        #expect(failure?.reason == "listed, but gone when read" && failure?.object == missing.rawValue)
    }

    /// Every thread of Dispatch's global queue blocked: the caller reads the object itself instead of waiting.
    @Test func aBusyPoolDoesNotHoldTheCaller() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (target, name, bytes) = try target(directory)
        let release = DispatchSemaphore(value: 0)
        let blockers = 4 * max(ProcessInfo.processInfo.activeProcessorCount, 1)
        for _ in 0..<blockers { DispatchQueue.global().async { release.wait() } }
        defer { for _ in 0..<blockers { release.signal() } }
        let prefetch = ReplicaPrefetch(name, sha256: SHA256Digest.hex(bytes), from: target, digest: .builtIn)
        let answered = DispatchSemaphore(value: 0)
        let read = Mutex<Data?>(nil)
        Thread {
            read.withLock { $0 = try? prefetch.bytes() }
            answered.signal()
        }.start()
        // The caller's own read takes milliseconds. A caller that only waited is rescued by libdispatch's monitor,
        // which adds a worker when its queue stalls, after about 8 s here (checked by making `bytes()` only wait).
        let inTime = answered.wait(timeout: .now() + 3) == .success
        #expect(inTime, "the caller waited for a pool thread")
        if !inTime { _ = answered.wait(timeout: .now() + 60) }
        #expect(read.withLock { $0 } == bytes)
    }
}
