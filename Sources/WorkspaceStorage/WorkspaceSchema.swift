import StateStore
import WorkspaceModel

/// The schema of `workspace.json`: version 4, the three steps that bring any earlier file to it (each with its
/// reverse, so the state can be written down to version 1 for an older release), the empty workspace, and the
/// repairs run after every load.
///
/// Version 4 writes `"minReaderVersion": 4`. A newer file loads when its `minReaderVersion` is 4 or lower (its
/// unknown keys and enum values are kept); otherwise it is refused. See docs/workspace-schema.md.
public enum WorkspaceSchema {
    /// The name of the state file in the state directory.
    public static let fileName = "workspace.json"

    /// The version this release writes.
    public static let currentVersion = 4

    /// The schema, for a caller that cannot go on without it: the chain is fixed at build time and its tests
    /// (WorkspaceSchemaTests) build it, so a failure here is a programming error and stops the process.
    public static var shipped: StateSchema<Workspace> {
        do {
            return try make()
        } catch {
            preconditionFailure("the workspace migration chain is invalid: \(error)")
        }
    }

    /// The shipped steps, from version 1 up to ``currentVersion``, each with its reverse.
    public static let migrations: [MigrationStep] = [
        MigrationStep(
            from: 1, WorkspaceV1.self, to: WorkspaceV2.self, consuming: WorkspaceMigrations.v1ToV2,
            revert: WorkspaceMigrations.v2ToV1),
        MigrationStep(
            from: 2, WorkspaceV2.self, to: WorkspaceV3.self, consuming: WorkspaceMigrations.v2ToV3,
            revert: WorkspaceMigrations.v3ToV2),
        MigrationStep(
            from: 3, WorkspaceV3.self, to: Workspace.self, consuming: WorkspaceMigrations.v3ToV4,
            revert: WorkspaceMigrations.v4ToV3),
    ]

    /// Builds the schema; the migration chain is validated here.
    public static func make() throws(MigrationPlanError) -> StateSchema<Workspace> {
        try make(currentVersion: currentVersion, adding: [])
    }

    /// The shipped chain with `steps` after it, writing `currentVersion`: a newer version a test puts on top of
    /// the shipped ones (the test executable's version 5 of the package-downgrade scenario). Each added step reads
    /// and makes a ``Workspace``.
    public static func make(
        currentVersion: Int, adding steps: [MigrationStep]
    ) throws(MigrationPlanError) -> StateSchema<Workspace> {
        try StateSchema<Workspace>(
            currentVersion: currentVersion,
            minReaderVersion: currentVersion,
            migrations: migrations + steps,
            initial: { Workspace() },
            repair: { workspace, log in
                for message in WorkspaceRepair.repair(&workspace) {
                    log.repaired(message)
                }
            })
    }
}
