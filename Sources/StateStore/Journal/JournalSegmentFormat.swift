import FoundationEssentials
import StateJSON

/// The files of the change journal and the records in them (framed by ``JournalFraming``).
///
/// The journal is a sequence of segment files beside the state file, `<name>.journal.<base>`, where `<base>` is
/// the revision of the snapshot the segment continues. Each snapshot starts a new segment, so the records a
/// durable snapshot contains are dropped by removing whole files: nothing is ever truncated or rewritten.
///
/// A segment's first record is its header, JSON: `{"journal":1,"lineage":"…","baseRevision":N}`, plus
/// `"relabels":"…"` (or `null`) in a segment that starts a new lineage without a snapshot. Every later
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
        /// When the segment starts a new lineage without a snapshot (the first segment after a crash, or without a
        /// state file): the lineage the state at ``baseRevision`` had before, `nil` for none (no state file). A
        /// replay whose state is in this lineage at exactly ``baseRevision`` continues with this segment.
        package var relabels: Lineage?
        /// Whether the segment starts a new lineage: ``relabels`` is meaningful (it may be `nil`: no state file).
        package var startsLineage: Bool

        package init(lineage: Lineage, baseRevision: UInt64, relabels: Lineage?? = .none) {
            self.lineage = lineage
            self.baseRevision = baseRevision
            self.startsLineage = relabels != nil
            self.relabels = relabels ?? nil
        }

        /// The header's payload.
        package var payload: [UInt8] {
            var text = "{\"journal\":\(JournalSegmentFormat.version),\"lineage\":\"\(lineage.rawValue)\","
            text += "\"baseRevision\":\(baseRevision)"
            if startsLineage { text += ",\"relabels\":" + (relabels.map { "\"\($0.rawValue)\"" } ?? "null") }
            return Array((text + "}").utf8)
        }

        /// The header in `payload`, or `nil` when it is not one this release reads.
        package init?(payload: some Collection<UInt8>) {
            guard let stored = Array(payload).withUnsafeBytes({ StoredHeader(json: $0) }),
                stored.journal == JournalSegmentFormat.version, let lineage = Lineage(rawValue: stored.lineage)
            else { return nil }
            switch stored.relabels {
            case .absent:
                self.init(lineage: lineage, baseRevision: stored.baseRevision)
            case .null:
                self.init(lineage: lineage, baseRevision: stored.baseRevision, relabels: .some(nil))
            case .text(let text):
                guard let relabels = Lineage(rawValue: text) else { return nil }
                self.init(lineage: lineage, baseRevision: stored.baseRevision, relabels: .some(relabels))
            case .other:
                return nil
            }
        }
    }

    /// A header as stored: an object with `journal`, `lineage` and `baseRevision`, and maybe `relabels`; other
    /// keys are skipped.
    ///
    /// Read with `JSONPullReader`, not `JSONDecoder`: every open of a journal reads a header, and the decoder's
    /// first use in a process looks up conformances by scanning all of the binary's conformance records. With the
    /// history's manifest (``HistoryManifest/init(json:)``) this was the decoder's use on a start's way to
    /// `READY=1`.
    private struct StoredHeader {
        var journal: Int
        var lineage: String
        var baseRevision: UInt64
        var relabels: StoredRelabels

        /// The header in the JSON `bytes`, or `nil` when they are not an object with the three keys, each of its
        /// type.
        init?(json bytes: UnsafeRawBufferPointer) {
            var reader = JSONPullReader(bytes: bytes)
            var journal: Int?
            var lineage: String?
            var baseRevision: UInt64?
            var relabels = StoredRelabels.absent
            do throws(JSONReadError) {
                try reader.beginObject()
                while let key = try reader.nextKey() {
                    if key.matches("journal") {
                        journal = try reader.readInteger(Int.self)
                    } else if key.matches("lineage") {
                        lineage = try reader.readString()
                    } else if key.matches("baseRevision") {
                        baseRevision = try reader.readInteger(UInt64.self)
                    } else if key.matches("relabels") {
                        switch try reader.peekKind() {
                        case .null:
                            _ = try reader.readNull()
                            relabels = .null
                        case .string:
                            relabels = .text(try reader.readString())
                        default:
                            _ = try reader.skipValue(checkingValues: true)
                            relabels = .other
                        }
                    } else {
                        _ = try reader.skipValue(checkingValues: true)
                    }
                }
                try reader.finish()
            } catch {
                return nil
            }
            guard let journal, let lineage, let baseRevision else { return nil }
            self.journal = journal
            self.lineage = lineage
            self.baseRevision = baseRevision
            self.relabels = relabels
        }
    }

    /// A header's `relabels` as stored: no key, `null`, a string, or anything else (a header this release does not
    /// read).
    private enum StoredRelabels {
        case absent
        case null
        case text(String)
        case other
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

    /// ``splitChange(_:)`` of the payload at `range` of `bytes`, giving the change's place: for a walk over many
    /// records of one buffer, which then makes no slice (and no reference count) per record.
    static func splitChange(
        at range: Range<Int>, of bytes: UnsafeRawBufferPointer
    ) -> (revision: UInt64, change: Range<Int>)? {
        guard range.count > 8 else { return nil }
        let revision = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: range.lowerBound, as: UInt64.self))
        return (revision, (range.lowerBound + 8)..<range.upperBound)
    }
}
