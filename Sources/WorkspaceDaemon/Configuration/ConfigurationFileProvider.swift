import Configuration

/// The configuration file's values as a swift-configuration provider, made from the bytes the loader read once.
///
/// swift-configuration's `FileProvider` opens and reads the file itself; the loader has read it already, to find
/// its unknown keys, so a second read cost the start a file read and URL set-up, and could see another file than
/// the one whose keys were checked, were it replaced in between. The values never change: the daemon reads the file
/// again only when it restarts or reloads, through a new loader run.
struct ConfigurationFileProvider: ConfigProvider {
    /// The values read.
    let snapshotValue: ConfigurationFileSnapshot

    /// The provider's name in swift-configuration's reports: the snapshot's, the file's path.
    var providerName: String { snapshotValue.providerName }

    /// The value of `key` as `type`, or none.
    func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        try snapshotValue.value(forKey: key, type: type)
    }

    /// As ``value(forKey:type:)``: the values are in memory.
    func fetchValue(forKey key: AbsoluteConfigKey, type: ConfigType) async throws -> LookupResult {
        try value(forKey: key, type: type)
    }

    /// The one value: it never changes.
    nonisolated(nonsending) func watchValue<Return: ~Copyable>(
        forKey key: AbsoluteConfigKey, type: ConfigType,
        updatesHandler:
            nonisolated(nonsending) (_ updates: ConfigUpdatesAsyncSequence<Result<LookupResult, any Error>, Never>)
            async throws
            -> Return
    ) async throws -> Return {
        try await watchValueFromValue(forKey: key, type: type, updatesHandler: updatesHandler)
    }

    /// The values read.
    func snapshot() -> any ConfigSnapshot { snapshotValue }

    /// The one snapshot: it never changes.
    nonisolated(nonsending) func watchSnapshot<Return: ~Copyable>(
        updatesHandler:
            nonisolated(nonsending) (_ updates: ConfigUpdatesAsyncSequence<any ConfigSnapshot, Never>) async throws ->
            Return
    ) async throws -> Return {
        try await watchSnapshotFromSnapshot(updatesHandler: updatesHandler)
    }
}
