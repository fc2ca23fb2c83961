import Foundation

extension StateFile {
    /// Replays a segment whose every record after the header is whole, in sequence, readable and applied without an
    /// error, in one pass of each: the records decoded together (`StateDirectDecodable.readDocuments`, in the change
    /// type's module, and through `JSONDecoder` those it refuses) and applied in place together
    /// (``StateChange/applyInPlace(_:to:)``). Returns `false`, with `model` and `replay` as they were, for any other
    /// segment: a damaged tail, a gap, a record that does not decode, a change that does not apply. The
    /// record-by-record replay then says where and why it stops, as before.
    ///
    /// The generic loop of that replay looked up the metadata of `Change` and `Optional<Change>` for every record,
    /// and read each through a closure: most of a start's replay was that, not reading or applying.
    static func replayCleanly<Change: StateChange>(
        _ changeType: Change.Type, _ bytes: [UInt8], _ scan: JournalFraming.Scan, onto model: inout Model,
        replay: inout JournalReplay
    ) -> Bool where Change.Model == Model {
        guard scan.damage == nil else { return false }
        var documents: [Range<Int>] = []
        documents.reserveCapacity(scan.payloads.count)
        var revision = replay.revision
        var alreadyInSnapshot = 0
        let clean = bytes.withUnsafeBytes { raw -> Bool in
            for range in scan.payloads.dropFirst() {
                guard let (recordRevision, change) = JournalSegmentFormat.splitChange(at: range, of: raw) else {
                    return false
                }
                if recordRevision == 0 { continue }  // A marker.
                if recordRevision <= revision, documents.isEmpty {
                    alreadyInSnapshot += 1
                    continue
                }
                guard recordRevision == revision + 1 else { return false }
                revision = recordRevision
                documents.append(change)
            }
            return true
        }
        guard clean else { return false }
        let reader = JournalChangeReader<Change>()
        var (changes, refusedCount) = bytes.withUnsafeBytes { raw in
            documents.map { UnsafeRawBufferPointer(rebasing: raw[$0]) }.withUnsafeBufferPointer {
                reader.readDirectly($0)
            }
        }
        if refusedCount > 0 {
            // All of them for a change type without a direct reader: through `JSONDecoder`, as one by one.
            var session = JournalChangeReader<Change>.Session(reader)
            for index in changes.indices where changes[index] == nil {
                guard let change = try? session.read(bytes[documents[index]]) else { return false }
                changes[index] = change
            }
        }
        // The model before, kept for a change that does not apply: in place, a change of several steps that fails
        // may have made some of them. Holding it costs the first change of each array a copy of that array.
        let before = model
        if Change.applyInPlace(changes, to: &model) != nil {
            model = before
            return false
        }
        replay.recordsAlreadyInSnapshot += alreadyInSnapshot
        replay.recordsReplayed += documents.count
        replay.revision = revision
        return true
    }
}
