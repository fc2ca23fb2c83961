import StateModel
import StateStore
import WorkspaceModel

/// `GET /v1/active-project`: the project clients show first, `null` for none.
@StateModel
public struct ActiveProjectResponse: Codable, Sendable, Equatable {
    /// The active project's id, or `nil`.
    @StateWritesNull public var projectID: WorkspaceID?
}
