import StateModel
import StateStore
import WorkspaceModel

// Version 2 of workspace.json as it shipped (`"version": 2`): panes gain `focusedTabIndex` and `tabs`, the
// owner gains `email`. Favorites are unchanged (``FavoriteV1``). Frozen: never edit what these types read or
// write. Version 3 reuses ``ProjectV2``, ``PaneV2`` and ``TabV2`` unchanged. The one allowed change: a field the
// schema gives a default (`focusedTabIndex` 0, `tabs` [], `email` "") reads as that default when missing,
// recorded in the load report, so such a file loads instead of being quarantined; no file that loaded before
// reads differently.

/// The root as version 2 wrote it.
@StateModel
struct WorkspaceV2: Codable, Sendable {
    @StateRecords var projects: [ProjectV2]
    @StateRecords var favorites: [FavoriteV1]
    @StateWritesNull var activeProjectID: WorkspaceID?
    var owner: OwnerV2
    var unknownFields: UnknownFields
}

/// A project as versions 2 and 3 wrote it (its panes are ``PaneV2``).
@StateModel
struct ProjectV2: Codable, Sendable {
    var id: WorkspaceID
    var name: String
    var layout: Layout
    @StateRecords var panes: [PaneV2]
    var unknownFields: UnknownFields
}

/// A pane as versions 2 and 3 wrote it: `viewMode` still a number, plus `focusedTabIndex` and `tabs`. The size of
/// the current `Pane`, as ``PaneV1`` is padded to be.
@StateModel
struct PaneV2: Codable, Sendable {
    var id: WorkspaceID
    var folder: String
    var viewMode: Int
    var focusedTabIndex: Int = 0
    @StateRecords var tabs: [TabV2] = []
    var unknownFields: UnknownFields
}

/// A tab as versions 2 and 3 wrote it.
@StateModel
struct TabV2: Codable, Sendable {
    var id: WorkspaceID
    var folder: String
    var unknownFields: UnknownFields
}

/// The owner as version 2 wrote it: gains `email`.
@StateModel
struct OwnerV2: Codable, Sendable {
    var name: String
    var age: String
    var email: String = ""
    var unknownFields: UnknownFields
}
