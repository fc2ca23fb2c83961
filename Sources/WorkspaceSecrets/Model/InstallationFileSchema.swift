import FoundationEssentials
import StateStore

/// The schema of `installation.json`: version 1, the shape every release has written (`version`, `id`,
/// `firstStartedAt`, `firstRelease`, `keyId`); version 1 writes `"minReaderVersion": 1`, and a file without it
/// (as releases before StateStore wrote it) loads as version 1.
public enum InstallationFileSchema {
    /// The version this release writes.
    public static let currentVersion = 1

    /// Builds the schema.
    ///
    /// Its initial state (a nil id, the epoch, no release, no key) is never written as it is: a missing file is
    /// reported as missing, and a write replaces the state it loaded.
    public static func make() throws(MigrationPlanError) -> StateSchema<InstallationFile> {
        try StateSchema<InstallationFile>(
            currentVersion: currentVersion, minReaderVersion: currentVersion,
            initial: {
                InstallationFile(
                    id: UUID(uuidString: "00000000-0000-0000-0000-000000000000")!,
                    firstStartedAt: Date(timeIntervalSince1970: 0), firstRelease: "",
                    keyId: "")
            })
    }

    /// The schema, built once.
    static let schema: StateSchema<InstallationFile> = {
        do {
            return try make()
        } catch {
            preconditionFailure("the installation.json schema is invalid: \(error)")
        }
    }()
}
