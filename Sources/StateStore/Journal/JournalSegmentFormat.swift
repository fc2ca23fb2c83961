import Foundation

/// The files of the change journal and the records in them (framed by ``JournalFraming``).
///
/// The journal is a sequence of segment files beside the state file, `<name>.journal.<base>`, where `<base>` is
/// the revision of the snapshot the segment continues. Each snapshot starts a new segment, so the records a
/// durable snapshot contains are dropped by removing whole files: nothing is ever truncated or rewritten.
///
/// A segment's first record is its header, JSON: `{"journal":1,"lineage":"…","baseRevision":N}`. Every later
/// record is one change: its revision as 8 bytes little-endian, then the change's JSON. Revisions follow one
/// another without gaps from `baseRevision + 1`.
package enum JournalSegmentFormat {
    /// The format version in a segment's header.
    package static let version = 1

    /// What a segment's first record says.
    package struct Header: Equatable, Sendable {
        /// The lineage of the state file the segment continues.
        package var lineage: Lineage
        /// The revision of the snapshot the segment continues; its first change is the next revision.
        package var baseRevision: UInt64

        package init(lineage: Lineage, baseRevision: UInt64) {
            self.lineage = lineage
            self.baseRevision = baseRevision
        }

        /// The header's payload.
        package var payload: [UInt8] {
            Array(
                "{\"journal\":\(JournalSegmentFormat.version),\"lineage\":\"\(lineage.rawValue)\",\"baseRevision\":\(baseRevision)}"
                    .utf8)
        }

        /// The header in `payload`, or `nil` when it is not one this release reads.
        package init?(payload: some Collection<UInt8>) {
            guard let stored = try? JSONDecoder().decode(StoredHeader.self, from: Data(payload)),
                stored.journal == JournalSegmentFormat.version, let lineage = Lineage(rawValue: stored.lineage)
            else { return nil }
            self.init(lineage: lineage, baseRevision: stored.baseRevision)
        }
    }

    /// A header as stored.
    private struct StoredHeader: Decodable {
        var journal: Int
        var lineage: String
        var baseRevision: UInt64
    }

    /// The name of the segment of `fileName` that continues `baseRevision`.
    package static func segmentName(fileName: String, baseRevision: UInt64) -> String {
        "\(fileName).journal.\(baseRevision)"
    }

    /// The base revision a segment's name gives, or `nil` when `name` is not a segment of `fileName`.
    package static func baseRevision(ofSegment name: String, fileName: String) -> UInt64? {
        let prefix = fileName + ".journal."
        guard name.hasPrefix(prefix) else { return nil }
        let digits = name.dropFirst(prefix.count)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return UInt64(digits)
    }

    /// The payload of the change record for `revision`: the revision, then `change`.
    package static func changePayload(revision: UInt64, change: some Collection<UInt8>) -> [UInt8] {
        var payload = (0..<8).map { UInt8(truncatingIfNeeded: revision >> (8 * $0)) }
        payload.append(contentsOf: change)
        return payload
    }

    /// The revision and the change's bytes of a change record, or `nil` when the payload is too short to be one.
    package static func splitChange(_ payload: ArraySlice<UInt8>) -> (revision: UInt64, change: ArraySlice<UInt8>)? {
        guard payload.count > 8 else { return nil }
        let start = payload.startIndex
        let revision = (0..<8).reduce(UInt64(0)) { value, index in
            value | UInt64(payload[start + index]) << (8 * index)
        }
        return (revision, payload[(start + 8)...])
    }
}
