import StateStore

/// The schema of `secrets.json.enc`: version 2, the step that brings a version 1 file to it, and the store of a
/// new installation.
///
/// Version 1 held the installation record; version 2 adds `tokens`. Version 2 writes `"minReaderVersion": 2`. A
/// newer file loads when its `minReaderVersion` is 2 or lower (its unknown keys and scopes are kept); otherwise
/// it is refused and left as it is. See docs/secrets.md.
public enum SecretsSchema {
    /// The name of the encrypted store in the state directory.
    public static let fileName = "secrets.json.enc"

    /// The version this release writes.
    public static let currentVersion = 2

    /// Builds the schema; the migration chain is validated here.
    ///
    /// - Parameter newInstallation: The record of a store created from nothing (the first start); called only
    ///   when there is no file.
    public static func make(
        newInstallation: @escaping @Sendable () -> InstallationRecord = { InstallationRecord.new(release: "unknown") }
    ) throws(MigrationPlanError) -> StateSchema<Secrets> {
        try StateSchema<Secrets>(
            currentVersion: currentVersion,
            minReaderVersion: currentVersion,
            migrations: [MigrationStep(from: 1, SecretsV1.self, to: Secrets.self, convert: v1ToV2)],
            initial: { Secrets(installation: newInstallation()) })
    }

    /// v1 → v2: the store gains `tokens` (none).
    @Sendable static func v1ToV2(_ old: SecretsV1, _ context: inout MigrationContext) -> Secrets {
        context.defaulted("tokens")
        let record = old.installation
        return Secrets(
            installation: InstallationRecord(
                id: record.id, firstStartedAt: record.firstStartedAt, firstRelease: record.firstRelease,
                unknownFields: record.unknownFields),
            tokens: [], unknownFields: old.unknownFields)
    }
}
