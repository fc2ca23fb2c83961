import StateModel
import StateStore
import WorkspaceModel

// Version 1 of workspace.json as it shipped (the first release; no `version` key). Frozen: never edit what
// these types read or write; a later change gets a new version. Read when a file of version 1 loads, and written
// by the reverse steps when a state is rolled back to version 1 (`workspaced migrate --to 1`), with the keys as
// version 1 wrote them (plus `version` and `minReaderVersion`, which version 1 keeps as unknown fields).
// `@StateRecords` marks the arrays of independent records for a salvage (CorruptFilePolicy.salvage); a strict load
// reads them as before. `@StateTransient` padding, which no file holds, sizes a pane like the current one
// (``PaneV1``).

/// The root as version 1 wrote it.
@StateModel
struct WorkspaceV1: Codable, Sendable {
    @StateRecords var projects: [ProjectV1]
    @StateRecords var favorites: [FavoriteV1]
    @StateWritesNull var activeProjectID: WorkspaceID?
    var owner: OwnerV1
    var unknownFields: UnknownFields
}

/// A project as version 1 wrote it.
@StateModel
struct ProjectV1: Codable, Sendable {
    var id: WorkspaceID
    var name: String
    var layout: Layout
    @StateRecords var panes: [PaneV1]
    var unknownFields: UnknownFields
}

/// A pane as version 1 wrote it: `viewMode` is a number (0 list, 1 icons, 2 columns), no tabs.
///
/// Padded to the size of the current `Pane` (72 bytes; MigrationLayoutTests), so that the pane arrays a
/// migration builds take the storage of the ones it frees. Without it each project's old array (272 bytes for
/// four panes) was freed between strings the new model keeps and fitted no later array: a migrating load of a
/// 20 MB version 1 file kept 7.7 MB of such holes resident, an eighth of its peak.
@StateModel
struct PaneV1: Codable, Sendable {
    var id: WorkspaceID
    var folder: String
    var viewMode: Int
    var unknownFields: UnknownFields
    /// Never read or written: only the record's size.
    @StateTransient private var padding: (Int, Int) = (0, 0)
}

/// A favorite as versions 1 and 2 wrote it: no `createdAt`.
@StateModel
struct FavoriteV1: Codable, Sendable {
    var id: WorkspaceID
    var name: String
    var path: String
    var unknownFields: UnknownFields
}

/// The owner as version 1 wrote it: `name`, and `age` as a string.
@StateModel
struct OwnerV1: Codable, Sendable {
    var name: String
    var age: String
    var unknownFields: UnknownFields
}
