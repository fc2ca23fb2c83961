import FoundationEssentials

/// The durable steps a start leaves for after it: the history's directory, when it had none, and the snapshot of
/// the state file the start loaded. Each costs an fsync (about half a millisecond, more beside other I/O) that the
/// start would otherwise make before `READY=1`.
///
/// They may wait because the state file stays as the start found it until a save replaces it, and every save
/// finishes them first (``HistoryArchive/finishStart()``, called before the save writes), as does anything that
/// reads or changes the history (``HistoryArchive/withArchive(_:)``), and the save queue right after the start. A
/// crash before then leaves what a crash during the start left: the state file the next start keeps instead.
struct HistoryStartWork {
    /// The directory did not exist: create it, then fsync the state directory for its name.
    var createsDirectory = false
    /// The state file to keep as the snapshot of the revision the start loaded.
    var snapshot: HistoryStartingSnapshot?
}

/// The state file a start loaded, to keep as the history's snapshot of its revision
/// (``HistoryArchive/keepStartingSnapshot(stateFile:revision:storedLineage:chainLineage:decodesAsHeld:)``).
struct HistoryStartingSnapshot {
    /// The state file's path.
    var stateFile: String
    /// The revision it holds.
    var revision: UInt64
    /// The lineage it stores (the state's own for a file an older release wrote).
    var storedLineage: String
    /// The state's lineage, whose chain the history follows.
    var chainLineage: String
    /// The load migrated, salvaged and repaired nothing (``HistoryFileRecord/decodesAsHeld``).
    var decodesAsHeld: Bool
}

extension HistoryArchive {
    /// Runs `body` under the archive's lock once the start's durable steps are done (``finishStart(_:)``): every
    /// read and change of the history goes through it, so none sees the history without them.
    func withArchive<Result, Failure: Error>(
        _ body: (inout ArchiveState) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        try state.withLock { (archive: inout ArchiveState) throws(Failure) -> sending Result in
            finishStart(&archive)
            return try body(&archive)
        }
    }

    /// Keeps the state file of `revision`, as a start found it, as a snapshot when the state's history (in
    /// `chainLineage`) has none of that revision: the changes after it can then be read back whatever a crash took
    /// from the history before it (segments never synced, whose changes the file holds). `decodesAsHeld`: the load
    /// of the file migrated, salvaged and repaired nothing (``HistoryFileRecord/decodesAsHeld``).
    ///
    /// Only noted here: the link and its directory's fsync are made by ``finishStart(_:)``, after the start and
    /// before any save replaces the file.
    func keepStartingSnapshot(
        stateFile: String, revision: UInt64, storedLineage: String, chainLineage: String, decodesAsHeld: Bool
    ) {
        state.withLock { archive in
            archive.startWork.snapshot = HistoryStartingSnapshot(
                stateFile: stateFile, revision: revision, storedLineage: storedLineage, chainLineage: chainLineage,
                decodesAsHeld: decodesAsHeld)
            startWorkPending.store(true, ordering: .releasing)
        }
    }

    /// Makes the start's durable steps (``HistoryStartWork``) if they are not made yet: called before a save
    /// replaces the state file, and on the save queue right after the start.
    func finishStart() {
        guard startWorkPending.load(ordering: .acquiring) else { return }
        state.withLock { finishStart(&$0) }
    }

    /// ``finishStart()`` under the lock. After ``close()`` nothing is made: the state file was not replaced since
    /// the start (a save would have made them), so the next start finds what this one found.
    func finishStart(_ archive: inout ArchiveState) {
        guard !archive.closed, archive.startWork.createsDirectory || archive.startWork.snapshot != nil else { return }
        let work = archive.startWork
        archive.startWork = HistoryStartWork()
        // Cleared once the steps are made, not before: a save that finds it clear goes on to replace the file the
        // link names, so it must not find it clear while the link is still to come.
        defer { startWorkPending.store(false, ordering: .releasing) }
        guard archive.failure == nil else { return }
        if work.createsDirectory {
            do {
                try fileSystem.createDirectory(directory, mode: 0o700)
                try fileSystem.fsyncDirectory(stateDirectory)
            } catch {
                archive.failure = "cannot create \(directory): \(error)"
                return
            }
        }
        if let snapshot = work.snapshot { link(snapshot, &archive) }
    }

    /// Links the start's state file into the directory as the snapshot of its revision, durably, unless the
    /// history holds one of that revision already; records it with its size only (``ArchiveState/undescribed``).
    private func link(_ snapshot: HistoryStartingSnapshot, _ archive: inout ArchiveState) {
        let revision = snapshot.revision
        let chain = Self.chain(
            of: snapshot.chainLineage, links: Self.links(archive.manifest.files, live: archive.liveLinks))
        guard chain[snapshot.storedLineage] != nil,
            !archive.manifest.files.contains(where: {
                $0.kind == .snapshot && $0.firstRevision == revision && Self.belongs($0, to: chain)
            })
        else { return }
        let name = HistoryFormat.snapshotName(revision: revision, lineage: snapshot.storedLineage)
        let date = Date()
        do {
            try fileSystem.link(snapshot.stateFile, to: path(name))
            try fileSystem.fsyncDirectory(directory)
            // Its checksums wait: hashing the whole file is the longest step after a large load
            // (``describeStartingSnapshot()``, on the save queue).
            guard var record = describe(name, archivedTime: date, hashing: false) else { return }
            if snapshot.decodesAsHeld { record.decodesAsHeld = true }
            archive.manifest.files.append(record)
            archive.undescribed = name
            Self.sort(&archive.manifest.files)
            // The link is durable and a start adopts a snapshot its manifest lacks, so the manifest's own durable
            // write waits: ``writeManifestIfBehind()``, after the start.
            manifestBehind.store(true, ordering: .releasing)
        } catch {
            archive.failure = "cannot keep \(snapshot.stateFile) as \(path(name)): \(error)"
        }
    }
}
