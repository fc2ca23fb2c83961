import Foundation
import Glibc
import StateStore
import WorkspaceModel
import WorkspaceStorage

/// Test-only schema version 5, for the package-downgrade system scenario: version 4 plus a root field
/// `schemaFiveNote` (a string) that no shipped version declares. In `workspaced-testing` only, and used only
/// when the environment has `WSD_TEST_HOOKS=1` and `WSD_TEST_SCHEMA_FIVE=1`, or `=one-way` for a step with no
/// reverse (no way down from version 5); the shipped `workspaced` has none of it.
///
/// The model stays ``Workspace``: version 5's field lives in the root's unknown fields, so the step is what a real
/// one is in its versions, its reverse and its report, without a second model type. The up step takes back what a
/// write down set aside, else writes the time of the migration, so that a field that came back can be told from
/// a new default.
enum TestSchemaFive {
    /// The root key version 5 adds.
    static let key = "schemaFiveNote"

    /// The schema the environment asks for, or `nil` for the shipped one.
    static func fromEnvironment() -> StateSchema<Workspace>? {
        guard variable("WSD_TEST_HOOKS") == "1", let mode = variable("WSD_TEST_SCHEMA_FIVE") else { return nil }
        do {
            return try make(reversible: mode != "one-way")
        } catch {
            preconditionFailure("the test schema 5 chain is invalid: \(error)")
        }
    }

    /// The shipped chain and a step from 4 to 5, with its reverse when `reversible`.
    static func make(reversible: Bool) throws(MigrationPlanError) -> StateSchema<Workspace> {
        let step =
            reversible
            ? MigrationStep(from: 4, Workspace.self, to: Workspace.self, convert: up, revert: down)
            : MigrationStep(from: 4, Workspace.self, to: Workspace.self, convert: up)
        return try WorkspaceSchema.make(currentVersion: 5, adding: [step])
    }

    /// 4 → 5: the note a write down set aside, else the time of this migration.
    @Sendable static func up(_ old: Workspace, _ context: inout MigrationContext) -> Workspace {
        var workspace = old
        var fields = workspace.unknownFields
        let note =
            context.takeBack(String.self, key, from: &fields, at: "")
            ?? "first written by version 5 at \(Date().timeIntervalSince1970)"
        fields.values[key] = .string(note)
        workspace.unknownFields = fields
        return workspace
    }

    /// 5 → 4: the note is set aside in the root's unknown fields, where a version 4 release keeps it.
    @Sendable static func down(_ new: Workspace, _ context: inout MigrationContext) throws -> Workspace {
        var workspace = new
        var fields = workspace.unknownFields
        guard case .string(let note)? = fields.values.removeValue(forKey: key) else { return workspace }
        workspace.unknownFields = try context.setAside(note, as: key, in: fields, at: "")
        return workspace
    }

    private static func variable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
