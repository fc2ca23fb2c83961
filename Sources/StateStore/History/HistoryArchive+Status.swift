import FoundationEssentials

extension HistoryArchive {
    /// The history kept now for the state in `lineage`.
    func status(lineage: String) -> HistoryStatus {
        withArchive { archive in
            let files = archive.manifest.files
            let chain = Self.chain(of: lineage, links: Self.links(files, live: archive.liveLinks))
            let current = files.filter { Self.belongs($0, to: chain) }
            let oldestRevision = Self.oldestReachable(current, chain: chain)
            let oldest = current.first { $0.kind == .snapshot && $0.firstRevision == oldestRevision }
            let others = files.filter { !Self.belongs($0, to: chain) }
            let epochs = Self.orderedLineages(others).map { lineage in
                let epoch = others.filter { $0.lineage == lineage }
                return HistoryStatus.Epoch(
                    lineage: lineage,
                    revisions: (epoch.map(\.firstRevision).min() ?? 0)...(epoch.map(\.lastRevision).max() ?? 0),
                    fileCount: epoch.count, byteCount: epoch.reduce(0) { $0 + $1.bytes })
            }
            var damaged = archive.damaged.sorted { $0.key < $1.key }.map {
                HistoryStatus.Damage(path: path($0.key), reason: $0.value)
            }
            if let failure = archive.failure { damaged.append(HistoryStatus.Damage(path: directory, reason: failure)) }
            let manifestBytes = (try? fileSystem.attributes(of: path(HistoryFormat.manifestName)))??.size
            var status = HistoryStatus(
                configuration: configuration, directory: directory, oldestRevision: oldest?.firstRevision,
                oldestDate: oldest?.firstTime, snapshotCount: files.filter { $0.kind == .snapshot }.count,
                segmentCount: files.filter { $0.kind == .segment }.count,
                fileCount: files.count + (manifestBytes == nil ? 0 : 1),
                byteCount: files.reduce(0) { $0 + $1.bytes } + (manifestBytes ?? 0), olderEpochs: epochs,
                damaged: damaged)
            if let held = hold?.held(files.map(\.name)) {
                let heldFiles = files.filter { held.contains($0.name) }
                status.heldFileCount = heldFiles.count
                status.heldByteCount = heldFiles.reduce(0) { $0 + $1.bytes }
            }
            return status
        }
    }
}
