import FoundationEssentials

/// A journal segment's bytes read for a replay (a start's, or a read of the past in the history): its header, and
/// its change records with the marker before each.
struct HistorySegment: Sendable {
    /// Where the bytes were read from.
    var path: String
    /// The file's bytes: mapped from it (``HistoryArchive/readSegment(_:)``) or read; the ranges of ``scan`` and
    /// ``ChangeLocation`` count from their first.
    var bytes: Data
    var scan: JournalFraming.Scan
    var header: JournalSegmentFormat.Header?
    /// Whether ``scan`` covers every record; `false` when only the header was read (`headerOnly`).
    var isFullyScanned: Bool

    /// The segment of `bytes`, scanned whole, or with `headerOnly` up to its header: a read of the past scans the
    /// rest on a helper thread (``fullyScanned()``) while the snapshot decodes.
    init(path: String, bytes: Data, headerOnly: Bool = false) {
        self.path = path
        self.bytes = bytes
        let scan = bytes.withUnsafeBytes { JournalFraming.scan($0, recordLimit: headerOnly ? 1 : .max) }
        self.scan = scan
        self.header = scan.payloads.first.flatMap { range in
            bytes.withUnsafeBytes { JournalSegmentFormat.Header(payload: ArraySlice($0[range])) }
        }
        self.isFullyScanned = !headerOnly || (scan.damage == nil && scan.validLength == bytes.count)
    }

    /// A copy of the bytes at `range`.
    func slice(_ range: Range<Int>) -> ArraySlice<UInt8> {
        bytes.withUnsafeBytes { ArraySlice($0[range]) }
    }

    /// The segment with every record scanned.
    func fullyScanned() -> HistorySegment {
        isFullyScanned ? self : HistorySegment(path: path, bytes: bytes)
    }

    /// One change record with the marker that applies to it.
    struct Record: Sendable {
        /// The segment's path, for errors.
        var path: String
        var revision: UInt64
        var marker: JournalSegmentFormat.Marker?
        /// The change's bytes: a slice of the segment's, which shares them (no copy).
        var change: Data
    }

    /// Where a change record is in ``bytes``: its revision, its change's bytes, and the payload of the last marker
    /// before it (still JSON: a replay needs no time, and reading every marker cost it).
    struct ChangeLocation: Sendable {
        var revision: UInt64
        var change: Range<Int>
        var marker: Range<Int>?
    }

    /// The change records in order, located.
    var changeLocations: [ChangeLocation] {
        var locations: [ChangeLocation] = []
        locations.reserveCapacity(scan.payloads.count)
        var marker: Range<Int>?
        bytes.withUnsafeBytes { raw in
            for range in scan.payloads.dropFirst() {
                guard let (revision, change) = JournalSegmentFormat.splitChange(at: range, of: raw) else { continue }
                if revision == 0 {
                    marker = change
                    continue
                }
                locations.append(ChangeLocation(revision: revision, change: change, marker: marker))
            }
        }
        return locations
    }

    /// The record at `location`, with its marker read (`previous`, when it is the marker at the same place).
    func record(at location: ChangeLocation, previous: inout (Range<Int>, JournalSegmentFormat.Marker?)?) -> Record {
        var marker: JournalSegmentFormat.Marker?
        if let range = location.marker {
            if let previous, previous.0 == range {
                marker = previous.1
            } else {
                marker = JournalSegmentFormat.Marker(revision: 0, bytes: slice(range))
                previous = (range, marker)
            }
        }
        let change = (bytes.startIndex + location.change.lowerBound)..<(bytes.startIndex + location.change.upperBound)
        return Record(path: path, revision: location.revision, marker: marker, change: bytes[change])
    }

    /// What the manifest records of the segment: its last change's revision and the times of its first and last
    /// changes. Reads only the markers and the revisions.
    var summary: (lastRevision: UInt64, firstTime: Date?, lastTime: Date?, changeCount: Int) {
        var last = header?.baseRevision ?? 0
        var first: Date?
        var newest: Date?
        var count = 0
        var marker: JournalSegmentFormat.Marker?
        bytes.withUnsafeBytes { raw in
            for range in scan.payloads.dropFirst() {
                guard let (revision, change) = JournalSegmentFormat.splitChange(at: range, of: raw) else { continue }
                if revision == 0 {
                    marker = JournalSegmentFormat.Marker(revision: revision, bytes: ArraySlice(raw[change])) ?? marker
                    continue
                }
                count += 1
                last = revision
                if first == nil { first = marker?.date }
                newest = marker?.date ?? newest
            }
        }
        return (last, first, newest, count)
    }
}
