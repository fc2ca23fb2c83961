import Foundation
import StateStore
import WorkspaceModel

/// The journal's encode of a change (`WorkspaceBench records`): the same 163,519 renames as
/// ``RecordDecodeTiming``, each encoded as the journal encodes it (`encodedForJournal()`, `WorkspaceChange`'s
/// direct writer) against `JSONEncoder` with the same options (sorted keys, unescaped slashes) in the same run.
enum RecordEncodeTiming {
    /// Times both encodes over `rounds` rounds and prints their medians, ns a change, the ratio and the direct
    /// writer's fastest round.
    static func run(rounds: Int) throws {
        let ids = (0..<100).map { _ in WorkspaceID() }
        let changes = (0..<RecordDecodeTiming.recordCount).map { index in
            WorkspaceChange.updateProject(id: ids[index % 100], name: "renamed \(index)", layout: nil)
        }
        var direct: [Double] = []
        var encoder: [Double] = []
        for _ in 0..<max(1, rounds) {
            direct.append(try timed { for change in changes { _ = try change.encodedForJournal() } })
            encoder.append(
                try timed {
                    let json = JSONEncoder()
                    json.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                    for change in changes { _ = Array(try json.encode(change)) }
                })
        }
        let (directMedian, encoderMedian) = (median(direct), median(encoder))
        print(
            String(
                format: "%d changes encoded: direct writer %.1f ms (%.0f ns a change; fastest %.1f ms); JSONEncoder "
                    + "%.1f ms (%.0f ns a change); ratio %.2f",
                changes.count, directMedian * 1000, directMedian * 1e9 / Double(changes.count),
                (direct.min() ?? 0) * 1000, encoderMedian * 1000, encoderMedian * 1e9 / Double(changes.count),
                directMedian / encoderMedian))
    }
}
