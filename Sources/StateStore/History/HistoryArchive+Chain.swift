extension HistoryArchive {
    /// A lineage's place in the history of the current state: the revision up to which its history is the current
    /// state's (`nil` for the current lineage itself, whose every revision is).
    typealias Chain = [String: UInt64?]

    /// The lineages whose history is the state's in `lineage`: itself, and every lineage a segment relabeled into
    /// one of them (a start after a crash continues the state in a new lineage at the replayed revision). Every
    /// other lineage is an earlier epoch, before a restore, quarantine, salvage or import.
    static func chain(
        of lineage: String, links: [(lineage: String, relabels: String?, baseRevision: UInt64)]
    ) -> Chain {
        var chain: Chain = [:]
        chain.updateValue(nil, forKey: lineage)
        var grew = true
        while grew {
            grew = false
            for link in links where chain[link.lineage] != nil {
                guard let older = link.relabels, chain[older] == nil else { continue }
                chain.updateValue(link.baseRevision, forKey: older)
                grew = true
            }
        }
        return chain
    }

    /// The links the manifest's segments record, with those of the live journal.
    static func links(
        _ files: [HistoryFileRecord], live: [(lineage: String, relabels: String?, baseRevision: UInt64)]
    ) -> [(lineage: String, relabels: String?, baseRevision: UInt64)] {
        files.filter { $0.kind == .segment && $0.startsLineage }.map { ($0.lineage, $0.relabels, $0.firstRevision) }
            + live
    }

    /// Whether `record` belongs to the state's history as `chain` says: of a lineage in it, and (for an earlier
    /// lineage) not past where the next one took over.
    static func belongs(_ record: HistoryFileRecord, to chain: Chain) -> Bool {
        guard let limit = chain[record.lineage] else { return false }
        guard let limit else { return true }
        return record.firstRevision <= limit
    }

    /// The oldest revision whose state `files` (the state's history, as ``belongs(_:to:)`` keeps) can give: the
    /// newest snapshot's, or an older snapshot's when the segments after it hold every change up to the next
    /// one. A gap (changes a crash took before they were synced, while a snapshot held them) ends it.
    static func oldestReachable(_ files: [HistoryFileRecord], chain: Chain) -> UInt64? {
        let snapshots = Set(files.filter { $0.kind == .snapshot }.map(\.firstRevision)).sorted(by: >)
        guard var oldest = snapshots.first else { return nil }
        let ranges = files.filter { $0.kind == .segment }.compactMap { record -> ClosedRange<UInt64>? in
            let last = min(record.lastRevision, (chain[record.lineage] ?? nil) ?? .max)
            return last > record.firstRevision ? (record.firstRevision + 1)...last : nil
        }
        for snapshot in snapshots.dropFirst() {
            var reached = snapshot
            var grew = true
            while grew, reached < oldest {
                grew = false
                for range in ranges where range.contains(reached + 1) && range.upperBound > reached {
                    reached = range.upperBound
                    grew = true
                }
            }
            guard reached >= oldest else { break }
            oldest = snapshot
        }
        return oldest
    }
}
