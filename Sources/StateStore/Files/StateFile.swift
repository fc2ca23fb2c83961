import FoundationEssentials
import Glibc
import Synchronization

/// A versioned state file for one model: loads whatever version wrote it, applies the policies for corrupt and
/// newer files, and writes it back durably.
///
/// ```swift
/// let file = StateFile(path: "/var/lib/app/state.json", schema: schema)
/// let loaded = try file.load()          // locks, sweeps temp files, migrates, repairs
/// logger.info("\(loaded.report.summary)")
/// try file.save(loaded.model)           // first save after a migration keeps the old bytes as a backup
/// ```
///
/// `load()` must succeed before anything is written, so a file is never overwritten unseen.
public final class StateFile<Model: Codable & Sendable>: Sendable {
    /// The state file.
    public let path: String
    /// How bytes become models and back.
    public let codec: StateCodec<Model>
    /// Policies and write options.
    public let configuration: StateFileConfiguration
    /// What opens the stored bytes and seals the written ones; `nil` for a plain JSON file.
    public let sealing: (any StateFileSealing)?
    let fileSystem: any FileSystem
    let writer: DurableWriter
    let now: @Sendable () -> Date
    /// Where the figures go (``StateFileConfiguration/metrics``).
    let figures: StateFigures
    let state = Mutex(MutableState())

    struct MutableState: Sendable {
        var lockDescriptor: Int32?
        var loaded = false
        var refusal: String? = "load() has not run"
        var writeVersion: Int?
        var writeMinReaderVersion: Int?
        var pendingBackupVersion: Int?
        var preMigrationBackupPath: String?
        /// The size of the last JSON this file loaded or encoded: the room the next encode makes up front.
        var lastJSONByteCount = 0
        /// The lineage the state belongs to: decided by the load, written by every save.
        var lineage = Lineage.random()
        /// The revision the file holds, or the next encode writes when none is given.
        var revision: UInt64 = 0
        /// How many bytes of a streamed save are written to the file at a time: the buffer a save holds beside the
        /// model, 288 KiB with its slack (a mebibyte's pieces raised the peak of a start that migrates a 50 MB
        /// file by 1.2 MB; a write of 256 KiB to the page cache costs nothing beside encoding it).
        var savePieceSize = 256 << 10
        /// What the lock file said about the last owner when this object took the lock.
        var previousSession: SessionMarker?
        /// The crash-loop guard's record as this object's load wrote it, until the load finished or was stopped.
        var countedLoad: LoadAttemptRecord?
    }

    /// A state file at `path` for `schema`.
    ///
    /// - Parameters:
    ///   - path: The state file; its directory holds the lock file, temporary files, backups and quarantined
    ///     copies.
    ///   - schema: The versions, migrations, initial state and repairs of the model.
    ///   - configuration: The policies for corrupt files, what is kept, and how files are written.
    ///   - sealing: Opens the stored bytes before decoding and seals them before writing (encryption); `nil`
    ///     stores the JSON as it is.
    ///   - fileSystem: The seam for every file operation; tests inject failures through it.
    ///   - now: The clock used to name quarantined files and backups.
    public init(
        path: String,
        schema: StateSchema<Model>,
        configuration: StateFileConfiguration = StateFileConfiguration(),
        sealing: (any StateFileSealing)? = nil,
        fileSystem: any FileSystem = PosixFileSystem(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.path = path
        self.directory = DurableWriter.directory(of: path)
        self.fileName = PathText.lastComponent(of: path)
        self.lockPath = directory + "/." + fileName + ".lock"
        self.codec = StateCodec(schema: schema, prettyPrinted: configuration.prettyPrinted)
        self.configuration = configuration
        self.sealing = sealing
        self.fileSystem = fileSystem
        self.writer = DurableWriter(fileSystem: fileSystem, mode: configuration.fileMode)
        self.now = now
        self.figures = StateFigures(configuration.metrics)
    }

    deinit {
        unlock()
    }

    // Made once: every path beside the state file is built from them (a start asks for them dozens of times).
    /// The directory holding the state file.
    public let directory: String
    /// The file's name without its directory.
    public let fileName: String
    /// The advisory lock file: `.<name>.lock` next to the state file.
    public let lockPath: String

    /// Loads the state: takes the lock, removes leftover temporary files, reads, migrates and repairs.
    ///
    /// A missing file gives the initial state. A corrupt file is salvaged, quarantined or refused by policy
    /// (``CorruptFilePolicy``); a salvaged file's original bytes are kept as a quarantined copy first. A newer file
    /// loads only when its `minReaderVersion` allows; otherwise
    /// ``StateStoreError/newerVersion(path:stored:minReaderVersion:current:)`` is thrown and
    /// the file is never written.
    public func load() throws(StateStoreError) -> LoadedState<Model> {
        do {
            var load = try beginLoad()
            let bytes = try readStateBytes(&load)
            let loaded = try finishLoad(load, bytes: bytes)
            figures.loaded(loaded.report)
            return loaded
        } catch {
            // A load that ends in an error (a newer file, a refused corrupt one) finished: it did not crash.
            stoppedWhileLoading()
            throw error
        }
    }

    /// A load under way: the clock and the report so far.
    struct LoadInProgress {
        let clock = ContinuousClock()
        let start: ContinuousClock.Instant
        var report: LoadReport
    }

    /// Takes the lock and sweeps temporary files.
    func beginLoad() throws(StateStoreError) -> LoadInProgress {
        let clock = ContinuousClock()
        var load = LoadInProgress(
            start: clock.now,
            report: LoadReport(
                path: path, source: .file, storedVersion: nil, currentVersion: codec.schema.currentVersion))
        if configuration.locking == .exclusive {
            try acquireLock()
            load.report.temporaryFilesRemoved = sweepTemporaryFiles()
            try guardAgainstCrashedLoads(&load)
        }
        return load
    }

    /// The state file's bytes, or `nil` when there is none: mapped from the file by the real file system when it
    /// is large (``PosixFileSystem/loadBytes(at:)``), so that the read gives its pages back as it goes.
    func readStateBytes(_ load: inout LoadInProgress) throws(StateStoreError) -> LoadBytes? {
        let readStart = load.clock.now
        defer { load.report.timings.read = load.clock.now - readStart }
        do {
            return try fileSystem.bytesForLoad(at: path)
        } catch {
            throw .readFailed(error)
        }
    }

    /// Decodes the state file's bytes (the initial state when there are none) under the policies.
    func finishLoad(_ load: LoadInProgress, bytes loaded: LoadBytes?) throws(StateStoreError) -> LoadedState<Model> {
        var report = load.report
        guard let loaded else {
            report.source = .noFile
            report.timings.total = load.clock.now - load.start
            markLoaded(
                writeVersion: nil, minReader: nil, pendingBackup: nil,
                lineage: resolveLineage(stored: nil, revision: 0, fileSize: nil, breaking: .noFile), report: &report)
            return LoadedState(model: codec.schema.initialModel(), report: report)
        }
        let bytes = loaded.data
        report.byteCount = bytes.count
        let decoded: DecodedState<Model>
        do {
            decoded = try decodeStored(
                bytes, path: path, salvaging: configuration.corruptFilePolicy == .salvage,
                mappedAt: loaded.mappedAt)
        } catch {
            switch error {
            case .newerVersion, .unsealFailed:
                refuseWrites("\(error)")
                throw error
            case .corrupt(_, let reason):
                guard configuration.corruptFilePolicy != .refuse, configuration.locking == .exclusive else {
                    refuseWrites("the file is corrupt and the policy is \(configuration.corruptFilePolicy.rawValue)")
                    throw error
                }
                let movedTo = try quarantine(reason: reason)
                report.source = .quarantined
                report.quarantine = LoadReport.Quarantine(
                    policy: configuration.corruptFilePolicy, reason: reason, movedTo: movedTo)
                if configuration.corruptFileFallback == .newestBackup,
                    let restored = try restoreNewestLoadableBackup()
                {
                    report.quarantine?.restoredFrom = restored.name
                    return try finishDecoded(
                        restored.decoded, byteCount: restored.byteCount, load: load, report: report,
                        lineageBreak: .quarantined)
                }
                report.timings.total = load.clock.now - load.start
                markLoaded(
                    writeVersion: nil, minReader: nil, pendingBackup: nil,
                    lineage: ResolvedLineage(lineage: .random(), revision: 0, lineageBreak: .quarantined),
                    report: &report)
                return LoadedState(model: codec.schema.initialModel(), report: report)
            default:
                throw error
            }
        }
        return try finishDecoded(
            decoded, byteCount: bytes.count, load: load, report: report,
            lineageBreak: decoded.salvage != nil ? .salvaged : nil)
    }

    /// Finishes a load whose bytes (`byteCount` of them) decoded as `decoded`: the report, a salvage's copy of the
    /// original, the lineage (continued unless `lineageBreak` says why not), and what the first save will do.
    private func finishDecoded(
        _ decoded: DecodedState<Model>, byteCount: Int, load: LoadInProgress, report loadReport: LoadReport,
        lineageBreak: LineageBreak?
    ) throws(StateStoreError) -> LoadedState<Model> {
        var report = loadReport
        report.record(decoded)
        report.byteCount = byteCount
        report.storedLineage = decoded.storedLineage
        // The room the first save makes up front: only a file whose state is used says how large the next is.
        state.withLock { $0.lastJSONByteCount = byteCount }
        if var salvage = decoded.salvage {
            if configuration.locking == .exclusive {
                salvage.originalKeptAt = try keepCorruptCopy(reason: salvage.reason)
            }
            report.source = .salvaged
            report.salvage = salvage
        }
        report.timings.total = load.clock.now - load.start
        let lineage = resolveLineage(
            stored: decoded.storedLineage, revision: decoded.storedRevision ?? 0, fileSize: byteCount,
            breaking: lineageBreak)
        // A newer file is written back under its own version only when every field of it is kept: one that lost
        // fields is this release's version now, so that the newer release migrates it instead of missing them.
        let keepsNewerVersion = decoded.isNewerCompatible && decoded.unknownKeysDropped.isEmpty
        // The original bytes are kept as a backup at the first save when that save changes the version, or drops
        // what the model does not keep.
        let backsUp = !decoded.stepsApplied.isEmpty || !decoded.unknownKeysDropped.isEmpty
        markLoaded(
            writeVersion: keepsNewerVersion ? decoded.storedVersion : nil,
            minReader: keepsNewerVersion ? decoded.storedMinReaderVersion : nil,
            pendingBackup: backsUp && decoded.salvage == nil ? decoded.storedVersion : nil,
            lineage: lineage, report: &report)
        return LoadedState(model: decoded.model, report: report)
    }

    /// Opens (``sealing``) and decodes stored bytes read from `path`, without any policy: a file that is not
    /// readable throws ``StateStoreError/corrupt(path:reason:)``, ``StateStoreError/newerVersion`` or
    /// ``StateStoreError/unsealFailed(path:reason:)``.
    ///
    /// With `salvaging`, a file whose records or fields do not all decode is salvaged
    /// (``StateCodec/decode(_:salvaging:)``) instead of thrown as corrupt when anything can be kept.
    ///
    /// With `mappedAt` (the address of `bytes` when they map the file), the direct read gives back the pages it
    /// has passed. `repairs` says when the schema's repairs run (``StateCodec/RepairPolicy``).
    func decodeStored(
        _ bytes: Data, path: String, salvaging: Bool = false, mappedAt: Int? = nil,
        repairs: StateCodec<Model>.RepairPolicy = .always
    ) throws(StateStoreError)
        -> DecodedState<Model>
    {
        var plaintext = bytes
        if let sealing {
            do {
                plaintext = try sealing.open(bytes)
            } catch {
                throw .unsealFailed(path: path, reason: "\(error)")
            }
        }
        let checksum = plaintext.withUnsafeBytes { bytes in
            // A mapped file's pages go back as they are hashed, as the read's do.
            let release =
                sealing == nil && mappedAt == Int(bitPattern: bytes.baseAddress) ? PageRelease(of: bytes) : nil
            return ContentChecksum.verify(
                bytes, key: codec.schema.contentChecksumKey, release: release.map { release in { release.release($0) } }
            )
        }
        do {
            var decoded = try codec.decode(plaintext, salvaging: salvaging, mappedAt: mappedAt, repairs: repairs)
            decoded.contentChecksum = checksum
            return decoded
        } catch {
            switch error {
            case .newerVersion(let stored, let minReader, let current):
                throw .newerVersion(path: path, stored: stored, minReaderVersion: minReader, current: current)
            case .corrupt(let reason):
                throw .corrupt(path: path, reason: reason)
            }
        }
    }

    /// Encodes `model` as this file will be written (deterministic bytes), stamped with the file's lineage and
    /// `revision`, and ending with the checksum of its content (``ContentChecksum``; inside the sealed bytes when
    /// the file is sealed).
    ///
    /// - Parameters:
    ///   - model: The state to encode.
    ///   - revision: The revision `model` is at; by default the one the file holds (the loaded one, or the last one
    ///     encoded).
    public func encode(_ model: Model, revision: UInt64? = nil) throws(StateStoreError) -> Data {
        let (version, minReader, lastSize, lineage, stamped) = state.withLock {
            if let revision { $0.revision = revision }
            return ($0.writeVersion, $0.writeMinReaderVersion, $0.lastJSONByteCount, $0.lineage, $0.revision)
        }
        let plaintext: Data
        do {
            // Room for what the last save wrote and a sixteenth more: one block for the whole document.
            plaintext = try codec.encode(
                model, version: version, minReaderVersion: minReader, revision: stamped, lineage: lineage,
                compact: true, capacity: lastSize + lastSize / 16, contentChecksumKey: codec.schema.contentChecksumKey)
        } catch {
            throw .encodingFailed(path: path, description: "\(error)")
        }
        state.withLock { $0.lastJSONByteCount = plaintext.count }
        guard let sealing else { return plaintext }
        do {
            return try sealing.seal(plaintext)
        } catch {
            throw .encodingFailed(path: path, description: "cannot seal: \(error)")
        }
    }

    /// Durably replaces the file with `data`. The first write after a migration first keeps the original file as
    /// `<name>.v<old>.bak`.
    public func write(_ data: Data) throws(StateStoreError) {
        try prepareWrite()
        do {
            try writer.write(data, to: path)
        } catch {
            throw .writeFailed(error)
        }
    }

    /// Encodes and durably writes `model`.
    public func save(_ model: Model) throws(StateStoreError) {
        try save(model, revision: nil)
    }

    /// Encodes `model` stamped with `revision` (as ``encode(_:revision:)`` does) and durably writes it, as
    /// ``write(_:)`` does; returns how many bytes the file holds.
    ///
    /// A model that writes itself (`@StateModel`) into a plain compact file is written to the file in pieces of
    /// about 256 KiB as they are produced, so the save never holds a second copy of the state in memory (the
    /// bytes are those ``encode(_:revision:)`` gives, the content checksum computed over the pieces as they go).
    /// Otherwise, and when the direct writer refuses part way (the temporary file is then discarded), the model is
    /// encoded whole first.
    @discardableResult
    public func save(_ model: Model, revision: UInt64?) throws(StateStoreError) -> Int {
        if sealing == nil, let written = try saveInPieces(model, revision: revision) { return written }
        let data = try encode(model, revision: revision)
        try write(data)
        return data.count
    }

    /// How many bytes of a streamed save go to the file at a time (256 KiB; tests make it small).
    package var savePieceSize: Int {
        get { state.withLock { $0.savePieceSize } }
        set { state.withLock { $0.savePieceSize = newValue } }
    }

    /// The streamed save of ``save(_:revision:)``; `nil` when the model cannot be written that way.
    private func saveInPieces(_ model: Model, revision: UInt64?) throws(StateStoreError) -> Int? {
        guard codec.writesInPieces(model) else { return nil }
        let (version, minReader, lineage, stamped, pieceSize) = state.withLock {
            if let revision { $0.revision = revision }
            return ($0.writeVersion, $0.writeMinReaderVersion, $0.lineage, $0.revision, $0.savePieceSize)
        }
        try prepareWrite()
        let codec = codec
        var written = 0
        let replaced: Bool
        do {
            replaced = try writer.write(to: path) { (output) throws(DurableWriteError) -> Bool in
                // The sink outlives nothing: it is called only while `codec.write` runs, below.
                let pieces = OutputPieces(output)
                do {
                    guard
                        try codec.write(
                            model, version: version, minReaderVersion: minReader, revision: stamped,
                            lineage: lineage, pieceSize: pieceSize,
                            contentChecksumKey: codec.schema.contentChecksumKey, to: { try pieces.output.write($0) })
                    else { return false }
                } catch let error as DurableWriteError {
                    throw error
                } catch {
                    // The direct writer refused part way: the temporary file goes, the whole encode follows.
                    return false
                }
                output = pieces.output
                written = output.byteCount
                return true
            }
        } catch {
            throw .writeFailed(error)
        }
        guard replaced else { return nil }
        state.withLock { $0.lastJSONByteCount = written }
        return written
    }

    /// Refuses a write this object may not do; before the first write after a migration, keeps the original file
    /// as `<name>.v<old>.bak`.
    private func prepareWrite() throws(StateStoreError) {
        let (refusal, pendingBackup) = state.withLock { ($0.refusal, $0.pendingBackupVersion) }
        if let refusal { throw .notWritable(path: path, reason: refusal) }
        if let pendingBackup {
            let kept = try keepPreMigrationBackup(version: pendingBackup)
            state.withLock {
                $0.pendingBackupVersion = nil
                $0.preMigrationBackupPath = kept
            }
        }
    }

    /// Where the first write after the last load's migration kept the original file (`<name>.v<old>.bak`);
    /// `nil` before that write, after a load that migrated nothing, or when the file no longer existed.
    public var preMigrationBackupPath: String? { state.withLock { $0.preMigrationBackupPath } }

    /// Releases the lock; the file can no longer be written through this object until it is loaded again.
    public func unlock() {
        let descriptor = state.withLock { state -> Int32? in
            defer {
                state.lockDescriptor = nil
                state.refusal = "the state file was unlocked"
            }
            return state.lockDescriptor
        }
        if let descriptor { try? fileSystem.close(descriptor, path: lockPath) }
    }

    func markLoaded(
        writeVersion: Int?, minReader: Int?, pendingBackup: Int?, lineage: ResolvedLineage, report: inout LoadReport
    ) {
        report.lineage = lineage.lineage
        report.revision = lineage.revision
        report.lineageBreak = lineage.lineageBreak
        state.withLock {
            $0.loaded = true
            $0.refusal = configuration.locking == .exclusive ? nil : "the file was loaded without a lock (read-only)"
            $0.writeVersion = writeVersion
            $0.writeMinReaderVersion = minReader
            $0.pendingBackupVersion = pendingBackup
            $0.preMigrationBackupPath = nil
            $0.lineage = lineage.lineage
            $0.revision = lineage.revision
        }
    }

    func refuseWrites(_ reason: String) {
        state.withLock { $0.refusal = reason }
    }

    /// Takes the exclusive advisory lock on ``lockPath`` (``load()`` does this itself); a second process gets
    /// ``StateStoreError/locked(lockPath:holder:)``. Does nothing when this object already holds it.
    ///
    /// A lock this very process held and released can stay held for a moment by a copy of its descriptor: a child
    /// that another thread is spawning has a copy of every descriptor, close-on-exec ones included, until its
    /// `exec`. When the lock file names this process as the holder, the lock is tried again for up to 200 ms
    /// before it is reported; another process holding it is reported at once.
    public func acquireLock() throws(StateStoreError) {
        if state.withLock({ $0.lockDescriptor }) != nil { return }
        var attempts = 0
        while true {
            do {
                let descriptor = try fileSystem.lockFile(lockPath, mode: 0o600)
                let previous = try takeOverSession(descriptor)
                state.withLock {
                    $0.lockDescriptor = descriptor
                    $0.previousSession = previous
                }
                return
            } catch {
                guard error.operation == "flock" && (error.errno == EWOULDBLOCK || error.errno == EAGAIN) else {
                    throw .lockFailed(error)
                }
                // The first line is the holder's pid; a clean stop's marker may follow it.
                let holder = (try? fileSystem.readFile(at: lockPath)).flatMap { $0 }
                    .map { String(decoding: $0, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? "" }
                    .map { $0.trimmingBlanks() }
                attempts += 1
                if holder == "\(getpid())", attempts < 100 {
                    usleep(2_000)
                    continue
                }
                throw .locked(lockPath: lockPath, holder: holder?.isEmpty == false ? holder : nil)
            }
        }
    }

    func sweepTemporaryFiles() -> [String] {
        let prefix = DurableWriter.temporaryPrefix(for: path)
        guard let names = try? fileSystem.contentsOfDirectory(directory) else { return [] }
        var removed: [String] = []
        for name in names where name.hasPrefix(prefix) {
            if (try? fileSystem.unlink(directory + "/" + name)) != nil { removed.append(name) }
        }
        return removed.sorted()
    }
}

/// The result of a load: the current-version model and the report of what it took.
public struct LoadedState<Model: Sendable>: Sendable {
    /// The model, migrated and repaired.
    public var model: Model
    /// What happened.
    public var report: LoadReport
}
