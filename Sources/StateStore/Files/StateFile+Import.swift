import FoundationEssentials
import StateJSON

extension StateFile {
    /// Loads like ``load()``, and when there is no state file, imports the file ``StateImport/sourcePath`` once:
    /// through the same decoding, migrations and repairs, written durably as the state file, then marked.
    ///
    /// The order makes every crash point safe: the intent (``StateImport/pendingPath``) is written durably
    /// first, then the state file, then the marker, then the intent is removed. The source is only ever read.
    ///
    /// - A marker present: nothing is imported again, even when the state file was deleted since
    ///   (``ImportResult/Outcome-swift.enum/markerWithoutState``).
    /// - A state file and an intent but no marker (killed before the marker): the marker is written now.
    /// - A state file and no marker: the state file wins (``ImportResult/Outcome-swift.enum/stateFileWins``
    ///   when the source exists too).
    /// - A source that cannot be read or decoded, or comes from a newer release: nothing is written, no marker,
    ///   the initial state is used and the next load tries again (``ImportResult/Outcome-swift.enum/refused``).
    ///   With ``CorruptFilePolicy/salvage``, a source whose records do not all decode is salvaged and imported
    ///   (``LoadReport/salvage`` lists the changes; the source, never modified, is the original).
    ///
    /// The state file itself follows ``load()``'s policies. The outcome is in ``LoadReport/importResult``.
    /// - Throws: What ``load()`` throws; ``StateStoreError/writeFailed(_:)`` when the intent or the state file
    ///   could not be written (nothing was marked: the next load imports again).
    public func load(importing source: StateImport) throws(StateStoreError) -> LoadedState<Model> {
        do {
            let loaded = try loadImporting(source)
            figures.loaded(loaded.report)
            return loaded
        } catch {
            // A load that ends in an error finished: it did not crash (see ``load()``).
            stoppedWhileLoading()
            throw error
        }
    }

    private func loadImporting(_ source: StateImport) throws(StateStoreError) -> LoadedState<Model> {
        var load = try beginLoad()
        if configuration.locking == .exclusive {
            load.report.temporaryFilesRemoved += sweepTemporaryFiles(of: source.markerPath)
            load.report.temporaryFilesRemoved += sweepTemporaryFiles(of: source.pendingPath)
        }
        let stateBytes = try readStateBytes(&load)
        let markerExists = fileSystem.exists(source.markerPath)
        var result = ImportResult(outcome: .noSource, sourcePath: source.sourcePath, markerPath: source.markerPath)
        result.marker = readMarker(source.markerPath)
        if let stateBytes {
            defer { removeStagedCopy(source) }
            if markerExists {
                result.outcome = .alreadyImported
            } else if let pending = readMarker(source.pendingPath) {
                result.outcome = .markerCompleted
                result.marker = pending
                result.reason = completeMarker(source, pending)
            } else if fileSystem.exists(source.sourcePath) || source.stagedCopyPath.map(fileSystem.exists) == true {
                result.outcome = .stateFileWins
            }
            var loaded = try finishLoad(load, bytes: stateBytes)
            loaded.report.importResult = result
            return loaded
        }
        if markerExists {
            removeStagedCopy(source)
            result.outcome = .markerWithoutState
            return initial(load, result)
        }
        return try importSource(source, load, result)
    }

    private func importSource(
        _ source: StateImport, _ load: LoadInProgress, _ result: ImportResult
    ) throws(StateStoreError) -> LoadedState<Model> {
        var result = result
        defer { removeStagedCopy(source) }
        let readPath = source.stagedCopyPath.flatMap { fileSystem.exists($0) ? $0 : nil } ?? source.sourcePath
        let bytes: Data
        do {
            guard let read = try fileSystem.readFile(at: readPath) else { return initial(load, result) }
            bytes = read
        } catch {
            result.outcome = .refused
            result.reason = "cannot read \(source.sourcePath): \(error)"
            return initial(load, result)
        }
        let decoded: DecodedState<Model>
        do {
            decoded = try decodeStored(
                bytes, path: source.sourcePath, salvaging: configuration.corruptFilePolicy == .salvage)
        } catch {
            result.outcome = .refused
            result.reason = error.description
            return initial(load, result)
        }
        let marker = ImportMarker(
            source: source.sourcePath, size: bytes.count, sha256: Self.sha256(bytes), version: decoded.storedVersion,
            importedAt: (try? ISO8601Timestamp.string(from: now())) ?? "\(now())")
        result.marker = marker
        do {
            try writer.write(Self.encodeMarker(marker), to: source.pendingPath)
        } catch {
            throw .writeFailed(error)
        }
        var report = load.report
        // The imported file stays where it is: the original bytes are kept there, whatever the save drops.
        let keepsNewerVersion = decoded.isNewerCompatible && decoded.unknownKeysDropped.isEmpty
        markLoaded(
            writeVersion: keepsNewerVersion ? decoded.storedVersion : nil,
            minReader: keepsNewerVersion ? decoded.storedMinReaderVersion : nil,
            pendingBackup: nil,
            lineage: ResolvedLineage(
                lineage: .random(), revision: decoded.storedRevision ?? 0, lineageBreak: .imported),
            report: &report)
        do {
            try save(decoded.model)
        } catch {
            refuseWrites("the import of \(source.sourcePath) failed: \(error)")
            throw error
        }
        result.outcome = .imported
        result.reason = completeMarker(source, marker)
        report.record(decoded)
        report.source = .imported
        report.byteCount = bytes.count
        report.importResult = result
        if var salvage = decoded.salvage {
            // The source is never modified: it is the original, kept where it was.
            salvage.originalKeptAt = source.sourcePath
            report.salvage = salvage
        }
        report.timings.total = load.clock.now - load.start
        return LoadedState(model: decoded.model, report: report)
    }

    /// The initial state, with the import's result in the report.
    private func initial(_ load: LoadInProgress, _ result: ImportResult) -> LoadedState<Model> {
        var report = load.report
        markLoaded(
            writeVersion: nil, minReader: nil, pendingBackup: nil,
            lineage: resolveLineage(stored: nil, revision: 0, fileSize: nil, breaking: .noFile), report: &report)
        report.source = .noFile
        report.importResult = result
        report.timings.total = load.clock.now - load.start
        return LoadedState(model: codec.schema.initialModel(), report: report)
    }

    /// Writes the marker durably and removes the intent; returns why it failed, or `nil`.
    private func completeMarker(_ source: StateImport, _ marker: ImportMarker) -> String? {
        do {
            try writer.write(Self.encodeMarker(marker), to: source.markerPath)
        } catch {
            return "the import marker could not be written (the next start writes it): \(error)"
        }
        if (try? fileSystem.unlink(source.pendingPath)) != nil {
            try? fileSystem.fsyncDirectory(DurableWriter.directory(of: source.pendingPath))
        }
        return nil
    }

    private func removeStagedCopy(_ source: StateImport) {
        guard let staged = source.stagedCopyPath, (try? fileSystem.unlink(staged)) != nil else { return }
        try? fileSystem.fsyncDirectory(DurableWriter.directory(of: staged))
    }

    private func readMarker(_ path: String) -> ImportMarker? {
        guard let bytes = (try? fileSystem.readFile(at: path)) ?? nil else { return nil }
        return try? JSONDecoder().decode(ImportMarker.self, from: bytes)
    }

    /// Removes leftover temporary files of a durable write to `path`.
    func sweepTemporaryFiles(of path: String) -> [String] {
        let directory = DurableWriter.directory(of: path)
        let prefix = DurableWriter.temporaryPrefix(for: path)
        guard let names = try? fileSystem.contentsOfDirectory(directory) else { return [] }
        return names.filter { $0.hasPrefix(prefix) && (try? fileSystem.unlink(directory + "/" + $0)) != nil }.sorted()
    }

    static func encodeMarker(_ marker: ImportMarker) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        // Encoding five plain fields cannot fail.
        var data = (try? encoder.encode(marker)) ?? Data()
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// Lowercase hex SHA-256 of `bytes`.
    static func sha256(_ bytes: Data) -> String {
        SHA256Digest.hex(bytes)
    }
}
