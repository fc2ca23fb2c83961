import FoundationEssentials
import StateJSON

extension HistoryManifest {
    /// The manifest in the JSON `bytes`, read as `JSONDecoder` reads the `Codable` manifest (every key of a
    /// record required except the optional ones, which may also be `null`; dates ISO 8601; other keys skipped),
    /// or `nil` when the bytes are not such a manifest.
    ///
    /// Read with `JSONPullReader`, not `JSONDecoder`: a start opens the history before `READY=1`, and the
    /// decoder's first use in a process looks up conformances by scanning all of the binary's conformance records.
    package init?(json bytes: UnsafeRawBufferPointer) {
        var reader = JSONPullReader(bytes: bytes)
        var history: Int?
        var files: [HistoryFileRecord]?
        do throws(JSONReadError) {
            try reader.beginObject()
            while let key = try reader.nextKey() {
                if key.matches("history") {
                    history = try reader.readInteger(Int.self)
                } else if key.matches("files") {
                    var records: [HistoryFileRecord] = []
                    try reader.beginArray()
                    while try reader.nextElement() {
                        guard let record = try HistoryFileRecord(reading: &reader) else { return nil }
                        records.append(record)
                    }
                    files = records
                } else {
                    _ = try reader.skipValue(checkingValues: true)
                }
            }
            try reader.finish()
        } catch {
            return nil
        }
        guard let history, let files else { return nil }
        self.init(files: files)
        self.history = history
    }
}

extension HistoryFileRecord {
    /// The record the reader is at, or `nil` when a key is missing or holds a value of another type.
    fileprivate init?(reading reader: inout JSONPullReader) throws(JSONReadError) {
        var name: String?
        var kind: Kind?
        var lineage: String?
        var relabels: String?
        var startsLineage: Bool?
        var firstRevision: UInt64?
        var lastRevision: UInt64?
        var firstTime: Date?
        var lastTime: Date?
        var archivedTime: Date?
        var bytes: Int?
        var sha256: String?
        var crc32c: UInt32?
        var decodesAsHeld: Bool?
        try reader.beginObject()
        while let key = try reader.nextKey() {
            if key.matches("name") {
                name = try reader.readString()
            } else if key.matches("kind") {
                guard let read = Kind(rawValue: try reader.readString()) else { return nil }
                kind = read
            } else if key.matches("lineage") {
                lineage = try reader.readString()
            } else if key.matches("relabels") {
                relabels = try reader.readNull() ? nil : reader.readString()
            } else if key.matches("startsLineage") {
                startsLineage = try reader.readBool()
            } else if key.matches("firstRevision") {
                firstRevision = try reader.readInteger(UInt64.self)
            } else if key.matches("lastRevision") {
                lastRevision = try reader.readInteger(UInt64.self)
            } else if key.matches("firstTime") {
                guard let read = try Self.readDate(&reader, optional: true) else { return nil }
                firstTime = read
            } else if key.matches("lastTime") {
                guard let read = try Self.readDate(&reader, optional: true) else { return nil }
                lastTime = read
            } else if key.matches("archivedTime") {
                guard case .some(.some(let read)) = try Self.readDate(&reader, optional: false) else { return nil }
                archivedTime = read
            } else if key.matches("bytes") {
                bytes = try reader.readInteger(Int.self)
            } else if key.matches("sha256") {
                sha256 = try reader.readString()
            } else if key.matches("crc32c") {
                crc32c = try reader.readNull() ? nil : reader.readInteger(UInt32.self)
            } else if key.matches("decodesAsHeld") {
                decodesAsHeld = try reader.readNull() ? nil : reader.readBool()
            } else {
                _ = try reader.skipValue(checkingValues: true)
            }
        }
        guard let name, let kind, let lineage, let startsLineage, let firstRevision, let lastRevision,
            let archivedTime, let bytes, let sha256
        else { return nil }
        self.init(
            name: name, kind: kind, lineage: lineage, relabels: relabels, startsLineage: startsLineage,
            firstRevision: firstRevision, lastRevision: lastRevision, firstTime: firstTime, lastTime: lastTime,
            archivedTime: archivedTime, bytes: bytes, sha256: sha256, crc32c: crc32c, decodesAsHeld: decodesAsHeld)
    }

    /// A date: `.some(nil)` for `null` where `optional`, `nil` for a string that is not an ISO 8601 date-time or
    /// a `null` that is not allowed.
    private static func readDate(_ reader: inout JSONPullReader, optional: Bool) throws(JSONReadError) -> Date?? {
        if try reader.readNull() { return optional ? .some(nil) : nil }
        guard let date = ISO8601Timestamp.date(from: try reader.readString()) else { return nil }
        return .some(date)
    }
}
