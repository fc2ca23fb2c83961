import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("workspaced shutdown edge cases", .serialized)
struct ShutdownTests {
    @Test func aSecondSignalDuringTheFlushChangesNothing() async throws {
        let harness = try TestDaemon()
        try harness.writeState(await WorkspaceFixtures.largeVersion1(projects: 2_000))
        let process = try harness.start()
        #expect(await harness.becomesReady())
        process.send(SIGTERM)
        process.send(SIGINT)
        process.send(SIGTERM)
        #expect(await process.waitForExit() == 0)
        let saved = try JSONSerialization.jsonObject(with: harness.stateBytes()) as? [String: Any]
        #expect(saved?["version"] as? Int == 4)
        #expect((saved?["projects"] as? [Any])?.count == 2_000)
        #expect(process.output.components(separatedBy: "flushed on stop").count == 2, "one flush")
    }

    /// A flush that cannot be written (a full file system) exits 74, logs at error, and leaves the old file.
    @Test func aFailedFlushExits74AndLeavesTheOldFile() async throws {
        let harness = try TestDaemon()
        // 128 KiB: with the filler gone, room for the second start's snapshot beside the secrets, the locks, the
        // journal and the history's manifest (tmpfs counts a 4 KiB page per file).
        guard
            let tmpfs = try SmallTmpfs.mountIfRoot(
                at: harness.stateDirectory, size: "128k", test: "aFailedFlushExits74AndLeavesTheOldFile")
        else { return }
        defer { tmpfs.unmount() }
        let original = try WorkspaceFixtures.data("versions/v4.json")
        try harness.writeState(original)
        let process = try harness.start()
        #expect(await harness.becomesReady())
        let folder = String(repeating: "d", count: 3_000)
        for index in 0..<4 {
            let created = try await curl(
                harness.socketPath, "POST", "/v1/favorites",
                body: #"{"name":"f\#(index)","path":"/srv/\#(folder)/\#(index)"}"#)
            try #require(created.status == 201)
        }
        // The changes are in the journal; now the file system fills up, so the snapshot of the stop cannot be written.
        let filler = harness.stateDirectory + "/filler"
        #expect(FileManager.default.createFile(atPath: filler, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: filler))
        let block = Data(count: 4096)
        while (try? handle.write(contentsOf: block)) != nil {}
        try? handle.close()
        process.send(SIGTERM)
        #expect(await process.waitForExit() == 74)
        #expect(try harness.stateBytes() == original)
        #expect(process.output.contains("flush on stop failed"))
        #expect(process.output.contains("which the next start replays"), "\(process.output)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: harness.stateDirectory)
            .filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
        // With room again, the next start replays the changes the failed stop could not write.
        try FileManager.default.removeItem(atPath: filler)
        let (second, ready, _) = try await harness.startUntilReadyOrExit(output: "second.log")
        #expect(ready, "\(second.output)")
        let favorites = try await curl(harness.socketPath, "GET", "/v1/favorites")
        for index in 0..<4 { #expect(favorites.body.contains(#""name":"f\#(index)""#), "f\(index) was lost") }
        second.send(SIGTERM)
        #expect(await second.waitForExit() == 0, "\(second.output)")
    }
}
