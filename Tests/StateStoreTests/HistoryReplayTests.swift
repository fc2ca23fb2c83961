import Foundation
import StateStore
import StateStoreSample
import StateStoreTesting
import TestSupport
import Testing

/// The replay of a read of the past (`HistoryReplayPipeline`): the snapshot and chunks of the records decoded side by
/// side and applied in order, across segments and chunk boundaries; and the snapshot's check before it is trusted.
@Suite(.heavy) struct HistoryReplayTests {
    /// Hundreds of changes read back at revisions spread over many chunks (64 records at least each) and, with small
    /// segments, over many segments, a chunk never crossing one.
    @Test(arguments: [300, 64 << 10])
    func longReplaysReadBackAtEveryRevision(segmentBytes: Int) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let scheduler = ManualPersistenceScheduler()
        let state = try openJournaled(
            try notebookFile(directory), scheduler: scheduler,
            journal: JournalConfiguration(maximumByteCount: segmentBytes),
            history: HistoryTests.history)
        try state.saveSynchronously()
        var expected: [UInt64: [String]] = [0: []]
        expected.merge(try HistoryTests().work(state, scheduler: scheduler, from: 1, count: 700, flushEvery: 50)) { $1 }
        let current = state.status.revision
        for revision in Array(stride(from: 0, through: current, by: 37)) + [current - 1, current] {
            #expect(
                HistoryTests().titles(try state.model(atRevision: revision)) == expected[revision],
                "revision \(revision)")
        }
    }

    /// A bit flipped in a snapshot that leaves its JSON readable is caught before the snapshot is trusted: by the
    /// CRC-32C the manifest holds, and by the SHA-256 in a manifest written before it held one. The check runs on
    /// a helper while the snapshot decodes; one that breaks the JSON is named by the check too, not by the decode.
    @Test(arguments: [false, true], [false, true])
    func aSnapshotWhoseBytesChangedIsNotServed(manifestWithoutChecksum: Bool, breaksJSON: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let scheduler = ManualPersistenceScheduler()
        var file: StateFile<Notebook>? = try notebookFile(directory)
        var state: PersistentState<Notebook>? = try openJournaled(
            file!, scheduler: scheduler, journal: JournalConfiguration(maximumByteCount: 300),
            history: HistoryTests.history)
        try state!.saveSynchronously()
        _ = try HistoryTests().work(state!, scheduler: scheduler, from: 1, count: 24)
        // The oldest snapshot after revision 0: it holds notes, and later saves replaced the state file (a snapshot
        // is a hard link of the file a save wrote).
        let snapshots = try historyNames(directory).compactMap { name -> (UInt64, String)? in
            let parts = name.split(separator: ".")
            guard parts.first == "snapshot", let revision = UInt64(parts[1]), revision > 0 else { return nil }
            return (revision, name)
        }.sorted { $0.0 < $1.0 }
        #expect(snapshots.count >= 2, "\(snapshots)")
        let (revision, snapshot) = try #require(snapshots.first)
        let path = directory.file("notebook.json.history/" + snapshot)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        // A letter of a note's title: the file is still JSON and still a notebook.
        let at = try #require(bytes.firstRange(of: Data("note ".utf8))).lowerBound
        bytes[at] = UInt8(ascii: "m")
        if breaksJSON { bytes[bytes.startIndex] = UInt8(ascii: "x") }
        try bytes.write(to: URL(fileURLWithPath: path))
        if manifestWithoutChecksum {
            try state!.close()
            file!.unlock()
            (state, file) = (nil, nil)
            let manifestPath = directory.file("notebook.json.history/manifest.json")
            var manifest = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifestPath)))
                    as? [String: Any])
            var files = try #require(manifest["files"] as? [[String: Any]])
            #expect(files.contains { $0["crc32c"] != nil })
            for index in files.indices { files[index]["crc32c"] = nil }
            manifest["files"] = files
            try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: manifestPath))
            file = try notebookFile(directory)
            state = try openJournaled(
                file!, scheduler: scheduler, journal: JournalConfiguration(maximumByteCount: 300),
                history: HistoryTests.history)
        }
        #expect {
            try state!.model(atRevision: revision)
        } throws: { error in
            guard case HistoryError.damaged(let damagedPath, let reason) = error else { return false }
            return damagedPath == path && reason.contains(manifestWithoutChecksum ? "SHA-256" : "CRC-32C")
        }
        #expect(state!.historyStatus?.damaged.map(\.path) == [path])
    }

    /// A segment cut short is named by its size against the manifest's, not by a checksum the read never
    /// compares (a walk checks each record's own CRC-32C), both by a read of the past and by `verifyHistory()`.
    @Test func aSegmentOfAnotherSizeIsNamedBySize() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let scheduler = ManualPersistenceScheduler()
        let state = try openJournaled(
            try notebookFile(directory), scheduler: scheduler, journal: JournalConfiguration(maximumByteCount: 300),
            history: HistoryTests.history)
        try state.saveSynchronously()
        _ = try HistoryTests().work(state, scheduler: scheduler, from: 1, count: 24)
        let segment = try #require(historyNames(directory).first { $0.hasPrefix("journal.") })
        let path = directory.file("notebook.json.history/" + segment)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.dropLast().write(to: URL(fileURLWithPath: path))
        let expected = "it holds \(bytes.count - 1) bytes where the manifest recorded \(bytes.count)"
        #expect {
            try state.model(atRevision: 1)
        } throws: { error in
            guard case HistoryError.damaged(let damagedPath, let reason) = error else { return false }
            return damagedPath == path && reason == expected
        }
        let verified = try #require(state.verifyHistory())
        #expect(verified.damaged.first { $0.path == path }?.reason == expected)
    }
}
