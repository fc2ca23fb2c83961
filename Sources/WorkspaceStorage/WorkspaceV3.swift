import FoundationEssentials
import StateModel
import StateStore
import WorkspaceModel

// Version 3 of workspace.json as it shipped (`"version": 3`): the owner's `name` is renamed `alias`, favorites
// gain an optional `createdAt`. Projects, panes and tabs are unchanged (``ProjectV2``). Frozen: never edit these
// types, except that a missing `email` reads as its default "" (see WorkspaceV2.swift).

/// The root as version 3 wrote it.
@StateModel
struct WorkspaceV3: Codable, Sendable {
    @StateRecords var projects: [ProjectV2]
    @StateRecords var favorites: [FavoriteV3]
    @StateWritesNull var activeProjectID: WorkspaceID?
    var owner: OwnerV3
    var unknownFields: UnknownFields
}

/// A favorite as version 3 wrote it: gains an optional `createdAt` (ISO 8601).
@StateModel
struct FavoriteV3: Codable, Sendable {
    var id: WorkspaceID
    var name: String
    var path: String
    var createdAt: Date?
    var unknownFields: UnknownFields
}

/// The owner as version 3 wrote it: `name` renamed `alias`; `age` still there.
@StateModel
struct OwnerV3: Codable, Sendable {
    var alias: String
    var age: String
    var email: String = ""
    var unknownFields: UnknownFields
}
