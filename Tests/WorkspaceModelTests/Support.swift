import Foundation
import StateStore
import Testing

@testable import WorkspaceModel
@testable import WorkspaceStorage

enum Fixtures {
    static var root: URL { Bundle.module.url(forResource: "Fixtures", withExtension: nil)! }
    static var versions: URL { root.appendingPathComponent("versions") }
    static var edge: URL { root.appendingPathComponent("edge") }

    static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: root.appendingPathComponent(relativePath))
    }
}

/// A codec for the workspace schema.
func workspaceCodec() throws -> StateCodec<Workspace> {
    StateCodec(schema: try WorkspaceSchema.make())
}

/// Decodes a fixture through the workspace schema.
func decodeFixture(_ relativePath: String) throws -> DecodedState<Workspace> {
    try workspaceCodec().decode(try Fixtures.data(relativePath))
}

/// An id from a literal UUID string; fails the test when it is not one.
func id(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> WorkspaceID {
    try #require(WorkspaceID(text), sourceLocation: sourceLocation)
}

/// Ids `00000000-0000-4000-8000-00000000000N` in order, for deterministic tests.
func sequentialID(_ number: Int) -> WorkspaceID {
    let digits = String(number, radix: 16)
    let suffix = String(repeating: "0", count: 12 - digits.count) + digits
    return WorkspaceID("00000000-0000-4000-8000-" + suffix)!
}

/// A workspace with one project (one pane with two tabs, the second focused) and one favorite, all with
/// sequential ids: project 1, pane 2, tabs 3 and 4, favorite 5.
func sampleWorkspace() -> Workspace {
    Workspace(
        projects: [
            Project(
                id: sequentialID(1), name: "One", layout: .split,
                panes: [
                    Pane(
                        id: sequentialID(2), folder: "/one", viewMode: .icons, focusedTabIndex: 1,
                        tabs: [Tab(id: sequentialID(3), folder: "/one/a"), Tab(id: sequentialID(4), folder: "/one/b")])
                ])
        ],
        favorites: [Favorite(id: sequentialID(5), name: "Fav", path: "/fav")],
        activeProjectID: sequentialID(1),
        owner: Owner(alias: "me", email: "me@example.com"))
}
