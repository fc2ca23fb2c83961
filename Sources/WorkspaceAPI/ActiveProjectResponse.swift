import WorkspaceModel

/// `GET /v1/active-project`: the project clients show first, `null` for none.
public struct ActiveProjectResponse: Codable, Sendable, Equatable {
    /// The active project's id, or `nil` (written as `null`).
    public var projectID: WorkspaceID?

    /// A response naming `projectID`.
    public init(projectID: WorkspaceID? = nil) {
        self.projectID = projectID
    }

    private enum CodingKeys: String, CodingKey { case projectID }

    /// Writes `projectID`, `null` included.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(projectID, forKey: .projectID)
    }
}
