import Foundation

/// A journal segment's bytes read for the history: its header, and its change records with the marker before
/// each.
struct HistorySegment: Sendable {
    /// Where the bytes were read from.
    var path: String
    var bytes: [UInt8]
    var scan: JournalFraming.Scan
    var header: JournalSegmentFormat.Header?

    init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
        self.scan = JournalFraming.scan(bytes)
        self.header = scan.payloads.first.flatMap { JournalSegmentFormat.Header(payload: bytes[$0]) }
    }

    /// One change record with the marker that applies to it.
    struct Record {
        /// The segment's path, for errors.
        var path: String
        var revision: UInt64
        var marker: JournalSegmentFormat.Marker?
        var change: ArraySlice<UInt8>
    }

    /// The change records in order, each with the last marker before it.
    var records: [Record] {
        var records: [Record] = []
        var marker: JournalSegmentFormat.Marker?
        for range in scan.payloads.dropFirst() {
            guard let (revision, change) = JournalSegmentFormat.splitChange(bytes[range]) else { continue }
            if revision == 0 {
                marker = JournalSegmentFormat.Marker(revision: revision, bytes: change) ?? marker
                continue
            }
            records.append(Record(path: path, revision: revision, marker: marker, change: change))
        }
        return records
    }

    /// What the manifest records of the segment: its last change's revision and the times of its first and last
    /// changes. Reads only the markers and the revisions.
    var summary: (lastRevision: UInt64, firstTime: Date?, lastTime: Date?, changeCount: Int) {
        var last = header?.baseRevision ?? 0
        var first: Date?
        var newest: Date?
        var count = 0
        var marker: JournalSegmentFormat.Marker?
        for range in scan.payloads.dropFirst() {
            guard let (revision, change) = JournalSegmentFormat.splitChange(bytes[range]) else { continue }
            if revision == 0 {
                marker = JournalSegmentFormat.Marker(revision: revision, bytes: change) ?? marker
                continue
            }
            count += 1
            last = revision
            if first == nil { first = marker?.date }
            newest = marker?.date ?? newest
        }
        return (last, first, newest, count)
    }
}
