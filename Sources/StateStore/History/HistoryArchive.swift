import FoundationEssentials
import Synchronization

/// The history directory of one journaled state (``HistoryFormat``): what compaction hands it, the snapshots it
/// links, the pruning, the manifest, and the files a read of the past needs.
///
/// One lock guards the directory: archiving, pruning and a read's gathering of bytes each hold it, so that a read
/// never sees a file half moved; the bytes are decoded and replayed after it is released.
final class HistoryArchive: Sendable {
    let directory: String
    /// The directory of the state file and of the live journal.
    let stateDirectory: String
    /// The state file's name (the live journal's segments are named after it).
    let stateFileName: String
    let fileSystem: any FileSystem
    let configuration: HistoryConfiguration
    /// Bytes of segments after the newest snapshot from which the next save's file is kept as a snapshot too:
    /// a read of the past replays at most about this much.
    let snapshotInterval: Int
    let fileMode: UInt32
    /// What a reader (a replicator) has not copied yet, which pruning keeps up to the hold's maximum.
    let hold: HistoryHold?
    let state: Mutex<ArchiveState>
    /// The manifest on disk lacks a record the start added (the files its open adopted, its starting snapshot):
    /// the next write of the manifest, or ``writeManifestIfBehind()``, writes it. Changed under the lock; read
    /// without it too, so that a stop checks it without waiting for a verification that hashes a snapshot under
    /// the lock.
    let manifestBehind = Atomic<Bool>(false)
    /// The start left durable steps to make (``ArchiveState/startWork``). Read without the lock, so that a save, which
    /// asks before every write, does not wait for one that hashes a file under it once the steps are made.
    let startWorkPending = Atomic<Bool>(false)

    struct ArchiveState {
        var manifest = HistoryManifest()
        /// Files that failed a check, by name.
        var damaged: [String: String] = [:]
        /// Links between lineages the live journal knows and the history does not yet: a segment that started
        /// `lineage` by relabeling `relabels` at `baseRevision` (a start after a crash).
        var liveLinks: [(lineage: String, relabels: String?, baseRevision: UInt64)] = []
        /// Why the last archiving failed, while it does; the journal's files are then removed as without history.
        var failure: String?
        /// Reads of the past under way (``HistoryArchive/beginPastRead(lineage:atOrBefore:)``).
        var pastReads = 0
        /// Files pruning dropped from the manifest while a read of the past was under way, unlinked when the last
        /// one ends. A crash before leaves them in the directory, where the next start adopts them again and the
        /// next pruning removes them.
        var unlinkAfterPastReads: Set<String> = []
        /// The open adopted records the manifest on disk lacks, which may name bytes not yet on the device (a
        /// segment is moved here without its own fsync): ``HistoryArchive/writeManifestIfBehind()`` syncs the file
        /// system first after all.
        var adoptedUnwritten = false
        /// The snapshot the start kept, whose record holds its size and times but not yet its checksums: hashing
        /// the state file on the start's path cost a 50 MB start 37 ms. ``HistoryArchive/describeStartingSnapshot()``
        /// fills them in after the start; a manifest write or a read of the files before it does so itself
        /// (``HistoryArchive/describeUndescribed(_:)``), and verification passes over it.
        var undescribed: String?
        /// The state stopped (``HistoryArchive/close()``): the description after the start writes nothing more.
        var closed = false
        /// The durable steps the start left for after it (``HistoryArchive/finishStart(_:)``).
        var startWork = HistoryStartWork()
    }

    init(
        stateFilePath: String, stateDirectory: String, stateFileName: String, fileSystem: any FileSystem,
        configuration: HistoryConfiguration, journalMaximumByteCount: Int, fileMode: UInt32, hold: HistoryHold? = nil
    ) {
        self.hold = hold
        self.directory = HistoryFormat.directory(ofStateFile: stateFilePath)
        self.stateDirectory = stateDirectory
        self.stateFileName = stateFileName
        self.fileSystem = fileSystem
        self.configuration = configuration
        self.snapshotInterval = max(1, min(journalMaximumByteCount, configuration.maximumByteCount / 4))
        self.fileMode = fileMode
        self.state = Mutex(ArchiveState())
    }

    func path(_ name: String) -> String { directory + "/" + name }

    /// Reads the manifest and reconciles it with the files: a file it lacks (a segment a save moved here, or a
    /// crash before its rewrite) is adopted, a record whose file is gone (a crash while pruning) is forgotten, a
    /// file whose size differs is reported damaged. When anything changed, the manifest is behind
    /// (``manifestBehind``): its next write, or ``writeManifestIfBehind()`` after the start, rewrites it. A missing
    /// directory is left to ``finishStart(_:)`` to create, after the start.
    ///
    /// With `readOnly` (a `check` tool beside a running owner) nothing is created, removed or written: the
    /// reconciled manifest is only kept in memory.
    func open(readOnly: Bool = false) {
        state.withLock { archive in
            do {
                if !readOnly, try fileSystem.attributes(of: directory) == nil {
                    // The directory, and the fsync of the state directory that makes its name durable, wait until
                    // something needs them (``finishStart(_:)``), off the start's way to READY=1. (One that exists
                    // needs no fsync: its creator made it, or the next fsync of the state directory carries the
                    // entry, as does any commit of a journaling file system.)
                    archive.startWork.createsDirectory = true
                    startWorkPending.store(true, ordering: .releasing)
                }
            } catch {
                archive.failure = "cannot read \(directory): \(error)"
                return
            }
            let names: [String]
            do {
                names = try fileSystem.contentsOfDirectory(directory)
            } catch {
                // A directory still to be created has nothing to read.
                guard archive.startWork.createsDirectory else {
                    archive.failure = "cannot list \(directory): \(error)"
                    return
                }
                names = []
            }
            for name in names
            where !readOnly && name.hasPrefix(DurableWriter.temporaryPrefix(for: path(HistoryFormat.manifestName))) {
                try? fileSystem.unlink(path(name))
            }
            var changed = false
            if let bytes = try? fileSystem.readFile(at: path(HistoryFormat.manifestName)) {
                if let manifest = bytes.withUnsafeBytes({ HistoryManifest(json: $0) }), manifest.history == 1 {
                    archive.manifest = manifest
                } else {
                    archive.damaged[HistoryFormat.manifestName] = "the manifest is not readable; it was rebuilt"
                    changed = true
                }
            }
            let present = Set(names)
            let before = archive.manifest.files.count
            archive.manifest.files.removeAll { !present.contains($0.name) }
            changed = changed || archive.manifest.files.count != before
            let known = Set(archive.manifest.files.map(\.name))
            for name in names.sorted() where !known.contains(name) && HistoryFormat.parse(name) != nil {
                if let record = describe(name, archivedTime: Date()) {
                    archive.manifest.files.append(record)
                    changed = true
                }
            }
            for record in archive.manifest.files {
                let size = (try? fileSystem.attributes(of: path(record.name)))??.size
                if size != record.bytes {
                    archive.damaged[record.name] =
                        "it holds \(size.map { "\($0)" } ?? "no") bytes, the manifest says \(record.bytes)"
                }
            }
            Self.sort(&archive.manifest.files)
            if changed, !readOnly {
                // Written after the start (``writeManifestIfBehind()``, syncing the file system first), not on its
                // way to READY=1: nearly every restart adopts the segment its last save moved here (moving one does
                // not rewrite the manifest). The files are all here; until the write, a crash leaves them to the
                // next start to adopt again.
                archive.adoptedUnwritten = true
                manifestBehind.store(true, ordering: .releasing)
            }
        }
    }

    /// The record of a file in the directory, read from its bytes; `nil` when it cannot be read. Without `hashing`,
    /// a snapshot's record holds its size and time, not its checksums (``ArchiveState/undescribed``).
    func describe(_ name: String, archivedTime: Date, hashing: Bool = true) -> HistoryFileRecord? {
        guard let kind = HistoryFormat.parse(name) else { return nil }
        switch kind {
        case .snapshot(let revision, let lineage):
            // A snapshot is a whole state file: hashed a piece at a time, so that a start that keeps the file it
            // loaded does not hold it a second time beside the model. Without `hashing`, its size and time only.
            let attributes = (try? fileSystem.attributes(of: path(name))) ?? nil
            let fingerprint = hashing ? try? fingerprint(of: path(name)) : nil
            guard let bytes = hashing ? fingerprint?.bytes : attributes?.size else { return nil }
            let time = attributes?.modificationDate ?? archivedTime
            return HistoryFileRecord(
                name: name, kind: .snapshot, lineage: lineage, relabels: nil, startsLineage: false,
                firstRevision: revision, lastRevision: revision, firstTime: time, lastTime: time,
                archivedTime: archivedTime, bytes: bytes, sha256: fingerprint?.sha256 ?? "",
                crc32c: fingerprint?.crc32c)
        case .segment(let base, let lineage):
            guard let bytes = try? fileSystem.readFile(at: path(name)) else { return nil }
            let sha = SHA256Digest.hex(bytes)
            let segment = HistorySegment(path: path(name), bytes: bytes)
            let summary = segment.summary
            return HistoryFileRecord(
                name: name, kind: .segment, lineage: segment.header?.lineage.rawValue ?? lineage,
                relabels: segment.header?.relabels?.rawValue, startsLineage: segment.header?.startsLineage ?? false,
                firstRevision: segment.header?.baseRevision ?? base, lastRevision: summary.lastRevision,
                firstTime: summary.firstTime, lastTime: summary.lastTime, archivedTime: archivedTime,
                bytes: bytes.count, sha256: sha)
        }
    }

    /// The size and checksums of the file at `filePath`, read a piece at a time; `nil` when there is no such file.
    func fingerprint(of filePath: String) throws(FileSystemError) -> FileFingerprint? {
        var hasher = SHA256Digest.Hasher()
        var crc: UInt32 = 0
        let count = try fileSystem.readPieces(at: filePath, pieceSize: FileFingerprint.pieceSize) {
            hasher.update($0)
            crc = CRC32C.checksum($0, continuing: crc)
        }
        guard let count else { return nil }
        return FileFingerprint(bytes: count, sha256: SHA256Digest.hex(digest: hasher.finish()), crc32c: crc)
    }

    /// Durably replaces the manifest, after a `syncfs(2)`: the segments moved since the last manifest were not
    /// synced one by one (a save moves one), and the manifest must not record a checksum of bytes the device may
    /// not hold. Until it is written, a start adopts them from what the device kept, as after a crash.
    /// Once written, the manifest holds every record: it is no longer behind, nor missing what the open adopted.
    func writeManifest(_ archive: inout ArchiveState, syncingFileSystem: Bool = true) throws {
        describeUndescribed(&archive)
        if syncingFileSystem { try fileSystem.syncFileSystem(containing: directory) }
        let data = try Self.encoder.encode(archive.manifest)
        try DurableWriter(fileSystem: fileSystem, mode: fileMode).write(
            data, to: path(HistoryFormat.manifestName))
        manifestBehind.store(false, ordering: .releasing)
        archive.adoptedUnwritten = false
    }

    /// Files in order: by first revision, snapshots before the segments that continue them.
    static func sort(_ files: inout [HistoryFileRecord]) {
        files.sort {
            ($0.firstRevision, $0.kind == .snapshot ? 0 : 1, $0.name) < (
                $1.firstRevision, $1.kind == .snapshot ? 0 : 1, $1.name
            )
        }
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .custom(WholeSecondDates.encode)
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom(WholeSecondDates.decode)
        return decoder
    }()
}
