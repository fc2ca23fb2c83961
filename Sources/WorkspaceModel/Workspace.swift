import StateCoding
import StateModel

/// The current (version 4) contents of `workspace.json`: projects, favorites, the active project and the owner.
///
/// Keys this release does not declare are kept at every level and written back. Change it through the
/// validating mutations (``createProject(name:layout:id:)`` and the others), which leave it unchanged when they
/// throw.
@StateModel
public struct Workspace: Codable, Sendable, Equatable {
    /// The projects, in order.
    @StateRecords public var projects: [Project]
    /// The favorite places, in order.
    @StateRecords public var favorites: [Favorite]
    /// The project clients show first; `nil` for none (written as `null`). Always names an existing project after
    /// loading.
    @StateWritesNull public var activeProjectID: WorkspaceID?
    /// Who the workspace belongs to.
    public var owner: Owner
    /// Root keys this version does not declare.
    public var unknownFields: UnknownFields

    /// A workspace with the given parts.
    public init(
        projects: [Project] = [], favorites: [Favorite] = [], activeProjectID: WorkspaceID? = nil,
        owner: Owner = Owner(), unknownFields: UnknownFields = UnknownFields()
    ) {
        self.projects = projects
        self.favorites = favorites
        self.activeProjectID = activeProjectID
        self.owner = owner
        self.unknownFields = unknownFields
    }
}
