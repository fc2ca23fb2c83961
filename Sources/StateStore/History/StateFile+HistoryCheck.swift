import FoundationEssentials

extension StateFile {
    /// Checks every file of the history beside this state file without changing anything (for `check` tools, also
    /// beside a running owner): each file's size and SHA-256 against the manifest, each segment's frames and
    /// header, and that the changes from the oldest snapshot on follow one another and decode as `changeType`.
    /// Returns `nil` when there is no history directory.
    ///
    /// - Parameters:
    ///   - changeType: The journal's changes.
    ///   - lineage: The lineage of the state the history belongs to (the file's stored one); the newest segment of
    ///     the live journal names it instead when there is one (a start after a crash continues a new lineage).
    ///     Files of lineages the state does not continue are reported as earlier epochs.
    ///   - configuration: The retention to report.
    /// - Returns: The history's status; ``HistoryStatus/damaged`` lists every file that failed a check.
    public func checkHistory<Change: StateChange>(
        _ changeType: Change.Type, lineage: Lineage, configuration: HistoryConfiguration = HistoryConfiguration()
    ) -> HistoryStatus? where Change.Model == Model {
        let archive = HistoryArchive(
            stateFilePath: path, stateDirectory: directory, stateFileName: fileName, fileSystem: fileSystem,
            configuration: configuration, journalMaximumByteCount: .max, fileMode: self.configuration.fileMode)
        guard (try? fileSystem.attributes(of: archive.directory)) != nil else { return nil }
        archive.open(readOnly: true)
        let lineage = archive.liveSegments().last?.header?.lineage ?? lineage
        let damagedCount = archive.verifyFiles()
        // The chain from the oldest snapshot on: every change in order, each decoding.
        if damagedCount == 0,
            let set = try? archive.gather(lineage: lineage.rawValue, after: 0),
            let oldest = set.oldestRevision
        {
            do {
                var session = JournalChangeReader<Change>.Session(JournalChangeReader())
                _ = try HistoryArchive.walk(set, from: oldest, through: .max) { record throws(HistoryError) in
                    _ = try PersistentState<Model>.decodeChange(&session, record)
                    return true
                }
            } catch {
                if case .damaged(let path, let reason) = error {
                    archive.state.withLock { $0.damaged[PathText.lastComponent(of: path)] = reason }
                }
            }
        }
        return archive.status(lineage: lineage.rawValue)
    }
}
