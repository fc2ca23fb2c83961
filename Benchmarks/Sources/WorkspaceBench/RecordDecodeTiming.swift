import Foundation
import StateStore
import WorkspaceModel

/// The direct reader's speed on journal records (`WorkspaceBench records`): 163,519 renames, the records of 16 MiB
/// of journal, encoded as the journal encodes them (`encodedForJournal()`), read as a replay reads them
/// (`WorkspaceChange.readDocuments`, one thread), against `JSONDecoder` on the same bytes in the same run.
enum RecordDecodeTiming {
    /// The renames a read of the past at 10 MB replays in `WorkspaceBench history`.
    static let recordCount = 163_519

    /// Times both decodes over `rounds` rounds and prints their medians, the ratio, the direct reader's MB/s and its
    /// fastest round (the least disturbed by other work on the machine).
    static func run(rounds: Int) throws {
        var blob: [UInt8] = []
        var ranges: [Range<Int>] = []
        let ids = (0..<100).map { _ in WorkspaceID() }
        for index in 0..<recordCount {
            let change = WorkspaceChange.updateProject(id: ids[index % 100], name: "renamed \(index)", layout: nil)
            let bytes = try change.encodedForJournal()
            ranges.append(blob.count..<blob.count + bytes.count)
            blob.append(contentsOf: bytes)
        }
        var direct: [Double] = []
        var decoder: [Double] = []
        for _ in 0..<max(1, rounds) {
            direct.append(
                try timed {
                    let refused = blob.withUnsafeBytes { raw in
                        let documents = ranges.map { UnsafeRawBufferPointer(rebasing: raw[$0]) }
                        return documents.withUnsafeBufferPointer { WorkspaceChange.readDocuments($0).refusedCount }
                    }
                    guard refused == 0 else { throw BenchError("the direct reader refused \(refused) records") }
                })
            decoder.append(
                try timed {
                    let json = JSONDecoder()
                    for range in ranges { _ = try json.decode(WorkspaceChange.self, from: Data(blob[range])) }
                })
        }
        let (directMedian, decoderMedian) = (median(direct), median(decoder))
        print(
            String(
                format:
                    "%d records (%.1f MiB): direct reader %.1f ms (%.0f ns a record, %.0f MB/s; fastest %.1f ms); JSONDecoder %.1f ms; "
                    + "ratio %.2f",
                recordCount, Double(blob.count) / 1_048_576, directMedian * 1000,
                directMedian * 1e9 / Double(recordCount),
                Double(blob.count) / directMedian / 1e6, (direct.min() ?? 0) * 1000, decoderMedian * 1000,
                directMedian / decoderMedian))
    }
}
