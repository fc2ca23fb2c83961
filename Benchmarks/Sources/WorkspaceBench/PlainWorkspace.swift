import Foundation

/// The baseline of every load figure: the same fields as the workspace model, as plain structs with a synthesized
/// `Codable` (String ids, no unknown-field capture, no validation, no migration), decoded by `JSONDecoder`.
enum Plain {
    /// Version 4, as the daemon writes it.
    struct Workspace: Codable {
        var version: Int
        var minReaderVersion: Int
        var projects: [Project]
        var favorites: [Favorite]
        var activeProjectID: String?
        var owner: Owner
    }

    /// A version 4 project.
    struct Project: Codable {
        var id: String
        var name: String
        var layout: String
        var panes: [Pane]
    }

    /// A version 4 pane.
    struct Pane: Codable {
        var id: String
        var folder: String
        var viewMode: String
        var focusedTabIndex: Int
        var tabs: [Tab]
    }

    /// A version 4 tab.
    struct Tab: Codable {
        var id: String
        var folder: String
    }

    /// A version 4 favorite.
    struct Favorite: Codable {
        var id: String
        var name: String
        var path: String
        var createdAt: Date?
    }

    /// A version 4 owner.
    struct Owner: Codable {
        var alias: String
        var email: String
    }

    /// Version 1, as an early release wrote it.
    struct WorkspaceV1: Codable {
        var projects: [ProjectV1]
        var favorites: [FavoriteV1]
        var activeProjectID: String?
        var owner: OwnerV1
    }

    /// A version 1 project.
    struct ProjectV1: Codable {
        var id: String
        var name: String
        var layout: String
        var panes: [PaneV1]
    }

    /// A version 1 pane.
    struct PaneV1: Codable {
        var id: String
        var folder: String
        var viewMode: Int
    }

    /// A version 1 favorite.
    struct FavoriteV1: Codable {
        var id: String
        var name: String
        var path: String
    }

    /// A version 1 owner.
    struct OwnerV1: Codable {
        var name: String
        var age: String
    }

    /// Decodes `data` as the plain structs of its version (1 when it has no `version` key).
    static func decode(_ data: Data) throws -> Int {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        if data.range(of: Data(#""version":"#.utf8)) != nil {
            return try decoder.decode(Workspace.self, from: data).projects.count
        }
        return try decoder.decode(WorkspaceV1.self, from: data).projects.count
    }
}
