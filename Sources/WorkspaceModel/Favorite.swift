import FoundationEssentials
import StateCoding
import StateModel

/// A favorite place: a named path.
@StateModel
public struct Favorite: Codable, Sendable, Equatable, Identifiable {
    /// Unique among favorites.
    public var id: WorkspaceID
    /// Shown to people.
    public var name: String
    /// The absolute path it points to.
    public var path: String
    /// When it was added; `nil` when unknown (every favorite migrated from version 2 or earlier). Left out of the
    /// file when unknown.
    public var createdAt: Date?
    /// Keys this version does not declare.
    public var unknownFields: UnknownFields
}
