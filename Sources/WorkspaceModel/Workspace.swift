import StateStore

/// The current (version 4) contents of `workspace.json`: projects, favorites, the active project and the owner.
///
/// Keys this release does not declare are kept at every level and written back. Change it through the
/// validating mutations (``createProject(name:layout:id:)`` and the others), which leave it unchanged when they
/// throw.
public struct Workspace: Codable, Sendable, Equatable {
    /// The projects, in order.
    public var projects: [Project]
    /// The favorite places, in order.
    public var favorites: [Favorite]
    /// The project clients show first; `nil` for none. Always names an existing project after loading.
    public var activeProjectID: WorkspaceID?
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

    private enum CodingKeys: String, CodingKey { case projects, favorites, activeProjectID, owner }

    /// Decodes the declared keys and keeps the rest.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        projects = try container.decode([Project].self, forKey: .projects)
        favorites = try container.decode([Favorite].self, forKey: .favorites)
        activeProjectID = try container.decodeIfPresent(WorkspaceID.self, forKey: .activeProjectID)
        owner = try container.decode(Owner.self, forKey: .owner)
        unknownFields = try UnknownFields(from: decoder, knownKeys: CodingKeys.self)
    }

    /// Encodes the kept keys, then the declared ones; no active project is written as `null`.
    public func encode(to encoder: any Encoder) throws {
        try unknownFields.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(projects, forKey: .projects)
        try container.encode(favorites, forKey: .favorites)
        try container.encode(activeProjectID, forKey: .activeProjectID)
        try container.encode(owner, forKey: .owner)
    }
}
