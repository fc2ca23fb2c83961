/// How far back a history reaches under its bounds, for a steady stream of changes: the history's pruning replayed
/// on sizes measured by ``HistoryFootprint`` (StateStore's `HistoryArchive.archive` and `prune`: a segment per
/// save; a snapshot of the state file after the save whose segments since the newest snapshot reach
/// min(journal bound, maximumByteCount / 4); then, oldest first and never the newest, every generation (a snapshot
/// and the segments up to the next) whose newest change is older than keepSeconds, and generations while the files
/// take more than maximumByteCount; the manifest is not counted).
///
/// The history reaches back to its oldest kept snapshot, so what it holds moves between a least span, right after a
/// generation was pruned, and a most.
struct HistoryRetention {
    /// Bytes of one segment (one save's changes).
    let segmentBytes: Double
    /// Seconds between saves.
    let segmentSeconds: Double
    /// Bytes of one snapshot (the state file).
    let snapshotBytes: Double
    /// The change journal's bound (``JournalConfiguration``'s default).
    var journalBound = Double(16 << 20)

    /// The least and the most seconds of changes the history holds once steady, with `maximumBytes` and
    /// `keepSeconds` (`nil`: no age limit), over `horizon` seconds of changes.
    func span(maximumBytes: Double, keepSeconds: Double?, horizon: Double) -> (least: Double, most: Double) {
        let interval = max(1, min(journalBound, (maximumBytes / 4).rounded(.down)))
        // Generations, oldest first: when the snapshot was taken, the segment bytes after it, the newest change.
        var generations: [(snapshotTime: Double, segments: Double, newest: Double)] = []
        var total = 0.0
        var least = Double.infinity
        var most = 0.0
        var pruned = false
        var time = 0.0
        while time < horizon {
            time += segmentSeconds
            if generations.isEmpty {
                // The first save keeps the first snapshot; its own segment, before it, reaches nothing.
                generations.append((time, 0, time))
                total = snapshotBytes
                continue
            }
            generations[generations.count - 1].segments += segmentBytes
            generations[generations.count - 1].newest = time
            total += segmentBytes
            if generations[generations.count - 1].segments >= interval {
                generations.append((time, 0, time))
                total += snapshotBytes
            }
            var kept: [(snapshotTime: Double, segments: Double, newest: Double)] = []
            for (index, generation) in generations.enumerated() {
                let old = keepSeconds.map { generation.newest < time - $0 } ?? false
                if index < generations.count - 1, old || total > maximumBytes {
                    total -= snapshotBytes + generation.segments
                    pruned = true
                } else {
                    kept.append(generation)
                }
            }
            generations = kept
            guard pruned, let oldest = generations.first else { continue }
            least = min(least, time - oldest.snapshotTime)
            most = max(most, time - oldest.snapshotTime)
        }
        return pruned ? (least, most) : (time, time)
    }

    /// The least `maximumBytes` whose least span (with no age limit) is at least `seconds`, to `step` bytes.
    func bytesToKeep(seconds: Double, step: Double = Double(1 << 20)) -> Double {
        // Long enough to reach the bound and then prune a few generations past it.
        let horizon = seconds + 4 * (journalBound / segmentBytes) * segmentSeconds
        var low = 0.0
        var high = step
        while span(maximumBytes: high, keepSeconds: nil, horizon: horizon).least < seconds { high *= 2 }
        while high - low > step {
            let middle = ((low + high) / 2 / step).rounded(.down) * step
            if middle <= low { break }
            if span(maximumBytes: middle, keepSeconds: nil, horizon: horizon).least < seconds {
                low = middle
            } else {
                high = middle
            }
        }
        return high
    }
}
