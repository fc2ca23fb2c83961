import FoundationEssentials

extension StateFile {
    /// Replays a segment whose every record after the header is whole, in sequence, readable and applied without an
    /// error, in one pass: the records decoded in chunks on every processor while this thread applies them in place
    /// in order (``HistoryReplayPipeline``, as a read of the past replays). Returns `false`, with `model` and
    /// `replay` as they were, for any other segment: a damaged tail, a gap, a record that does not decode, a change
    /// that does not apply. The record-by-record replay then says where and why it stops, as before.
    ///
    /// The generic loop of that replay looked up the metadata of `Change` and `Optional<Change>` for every record,
    /// and read each through a closure: most of a start's replay was that, not reading or applying. Decoding the
    /// records (about half of what is left) does not depend on the model, so it runs beside the applying.
    static func replayCleanly<Change: StateChange>(
        _ changeType: Change.Type, _ segment: HistorySegment, onto model: inout Model, replay: inout JournalReplay
    ) -> Bool where Change.Model == Model {
        guard segment.scan.damage == nil else { return false }
        let from = replay.revision
        var revision = from
        var alreadyInSnapshot = 0
        let clean = segment.bytes.withUnsafeBytes { raw -> Bool in
            for range in segment.scan.payloads.dropFirst() {
                guard let (recordRevision, _) = JournalSegmentFormat.splitChange(at: range, of: raw) else {
                    return false
                }
                if recordRevision == 0 { continue }  // A marker.
                if recordRevision <= revision, revision == from {
                    alreadyInSnapshot += 1
                    continue
                }
                guard recordRevision == revision + 1 else { return false }
                revision = recordRevision
            }
            return true
        }
        guard clean else { return false }
        if revision > from {
            // The model before, kept for a change that does not apply: in place, a change of several steps that
            // fails may have made some of them. Holding it costs the first change of each array a copy of that
            // array.
            let before = model
            do throws(HistoryError) {
                model = try HistoryReplayPipeline.replay(
                    checkBase: {}, { [(segment, nil)] }, from: from, through: revision,
                    reader: JournalChangeReader<Change>(), base: { before })
            } catch {
                model = before
                return false
            }
        }
        replay.recordsAlreadyInSnapshot += alreadyInSnapshot
        replay.recordsReplayed += Int(revision - from)
        replay.revision = revision
        return true
    }
}
