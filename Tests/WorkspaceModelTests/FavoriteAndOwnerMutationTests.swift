import Foundation
import Testing

@testable import WorkspaceModel

@Suite("Favorite and owner mutations")
struct FavoriteAndOwnerMutationTests {
    @Test func addFavoriteAppendsItWithItsDate() throws {
        var workspace = sampleWorkspace()
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        let favorite = try workspace.addFavorite(name: "New", path: "/new", createdAt: date, id: sequentialID(9))
        #expect(favorite == Favorite(id: sequentialID(9), name: "New", path: "/new", createdAt: date))
        #expect(workspace.favorites.map(\.id) == [sequentialID(5), sequentialID(9)])
    }

    @Test func addFavoriteValidates() {
        var workspace = sampleWorkspace()
        let date = Date(timeIntervalSince1970: 0)
        #expect(throws: WorkspaceError.invalid(field: "path", reason: "must be an absolute path")) {
            try workspace.addFavorite(name: "x", path: "~/x", createdAt: date)
        }
        #expect(throws: WorkspaceError.self) {
            try workspace.addFavorite(name: String(repeating: "n", count: 257), path: "/x", createdAt: date)
        }
        #expect(throws: WorkspaceError.alreadyExists(kind: .favorite, id: sequentialID(5))) {
            try workspace.addFavorite(name: "x", path: "/x", createdAt: date, id: sequentialID(5))
        }
        #expect(workspace == sampleWorkspace())
    }

    @Test func favoriteIdsAreSeparateFromProjectIds() throws {
        var workspace = sampleWorkspace()
        try workspace.addFavorite(name: "x", path: "/x", createdAt: Date(), id: sequentialID(1))
        #expect(workspace.favorites.count == 2)
    }

    @Test func removeFavorite() throws {
        var workspace = sampleWorkspace()
        try workspace.removeFavorite(sequentialID(5))
        #expect(workspace.favorites.isEmpty)
        #expect(throws: WorkspaceError.notFound(kind: .favorite, id: sequentialID(5))) {
            try workspace.removeFavorite(sequentialID(5))
        }
    }

    @Test func ownerAliasAndEmail() throws {
        var workspace = sampleWorkspace()
        try workspace.setOwnerAlias("Someone Else")
        try workspace.setOwnerEmail("")
        #expect(workspace.owner == Owner(alias: "Someone Else", email: ""))
        try workspace.setOwnerEmail("a@b.example")
        #expect(workspace.owner.email == "a@b.example")
    }

    @Test func ownerAliasAndEmailValidate() {
        var workspace = sampleWorkspace()
        #expect(throws: WorkspaceError.invalid(field: "alias", reason: "must not be empty")) {
            try workspace.setOwnerAlias("")
        }
        #expect(throws: WorkspaceError.invalid(field: "alias", reason: "must not contain control characters")) {
            try workspace.setOwnerAlias("tab\there")
        }
        for bad in ["no-at-sign", "two@@example", "@example", "me@", "sp ace@example.com"] {
            #expect(throws: WorkspaceError.self, "\(bad)") { try workspace.setOwnerEmail(bad) }
        }
        #expect(workspace == sampleWorkspace())
    }
}
