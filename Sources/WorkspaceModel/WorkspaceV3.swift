import Foundation
import StateStore

// Version 3 of workspace.json as it shipped (`"version": 3`): the owner's `name` is renamed `alias`, favorites
// gain an optional `createdAt`. Projects, panes and tabs are unchanged (``ProjectV2``). Frozen: never edit these
// types, except that a missing `email` reads as its default "" (see WorkspaceV2.swift).

/// The root as version 3 wrote it.
struct WorkspaceV3: Decodable, Sendable {
    var projects: [ProjectV2]
    var favorites: [FavoriteV3]
    var activeProjectID: WorkspaceID?
    var owner: OwnerV3
    var unknownFields: UnknownFields

    private enum CodingKeys: String, CodingKey { case projects, favorites, activeProjectID, owner }

    init(
        projects: [ProjectV2], favorites: [FavoriteV3], activeProjectID: WorkspaceID?, owner: OwnerV3,
        unknownFields: UnknownFields
    ) {
        self.projects = projects
        self.favorites = favorites
        self.activeProjectID = activeProjectID
        self.owner = owner
        self.unknownFields = unknownFields
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        projects = try container.decode([ProjectV2].self, forKey: .projects)
        favorites = try container.decode([FavoriteV3].self, forKey: .favorites)
        activeProjectID = try container.decodeIfPresent(WorkspaceID.self, forKey: .activeProjectID)
        owner = try container.decode(OwnerV3.self, forKey: .owner)
        unknownFields = try UnknownFields(from: decoder, knownKeys: CodingKeys.self)
    }
}

/// A favorite as version 3 wrote it: gains an optional `createdAt` (ISO 8601).
struct FavoriteV3: Decodable, Sendable {
    var id: WorkspaceID
    var name: String
    var path: String
    var createdAt: Date?
    var unknownFields: UnknownFields

    private enum CodingKeys: String, CodingKey { case id, name, path, createdAt }

    init(id: WorkspaceID, name: String, path: String, createdAt: Date?, unknownFields: UnknownFields) {
        self.id = id
        self.name = name
        self.path = path
        self.createdAt = createdAt
        self.unknownFields = unknownFields
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(WorkspaceID.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        path = try container.decode(String.self, forKey: .path)
        createdAt = try container.decodeIfPresent(Date.self, forKey: .createdAt)
        unknownFields = try UnknownFields(from: decoder, knownKeys: CodingKeys.self)
    }
}

/// The owner as version 3 wrote it: `name` renamed `alias`; `age` still there.
struct OwnerV3: Decodable, Sendable {
    var alias: String
    var age: String
    var email: String
    var unknownFields: UnknownFields

    private enum CodingKeys: String, CodingKey { case alias, age, email }

    init(alias: String, age: String, email: String, unknownFields: UnknownFields) {
        self.alias = alias
        self.age = age
        self.email = email
        self.unknownFields = unknownFields
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        alias = try container.decode(String.self, forKey: .alias)
        age = try container.decode(String.self, forKey: .age)
        email = try container.decode(String.self, forKey: .email, defaultingTo: "", in: decoder)
        unknownFields = try UnknownFields(from: decoder, knownKeys: CodingKeys.self)
    }
}
