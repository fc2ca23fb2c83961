import Foundation
import StateStore
import Testing

@testable import WorkspaceModel

/// The journal's replay reads each change with `WorkspaceChange`'s direct reader, and through `JSONDecoder` when
/// it refuses: the reader must give the change `JSONDecoder` gives, or refuse.
@Suite("Changes read directly")
struct ChangeDirectReadTests {
    static let id = sequentialID(1)
    static let other = sequentialID(2)

    /// Every case, with each optional label given and not.
    static let changes: [WorkspaceChange] = [
        .createProject(id: id, name: "Site \"é\" / ☃", layout: .quad),
        .createProject(id: id, name: "", layout: Layout(rawValue: "a layout from later")),
        .updateProject(id: id, name: "New", layout: .single), .updateProject(id: id, name: nil, layout: nil),
        .updateProject(id: id, name: nil, layout: .split), .deleteProject(id: id),
        .setActiveProject(id: id), .setActiveProject(id: nil),
        .createPane(id: id, projectID: other, folder: "/srv/a b", viewMode: .columns),
        .updatePane(id: id, folder: "/x", viewMode: nil), .updatePane(id: id, folder: nil, viewMode: .icons),
        .deletePane(id: id), .createTab(id: id, paneID: other, folder: "/t"), .deleteTab(id: id),
        .focusTab(id: id),
        .addFavorite(id: id, name: "f", path: "/f", createdAt: Date(timeIntervalSinceReferenceDate: 812_345_678.125)),
        .addFavorite(id: id, name: "f", path: "/f", createdAt: Date(timeIntervalSince1970: 0)),
        .deleteFavorite(id: id), .updateOwner(alias: "ada", email: nil), .updateOwner(alias: nil, email: "a@b.c"),
        .updateOwner(alias: nil, email: nil),
        .restoreWorkspace(workspace: sampleWorkspace()), .restoreWorkspace(workspace: Workspace()),
        .restoreProject(project: sampleWorkspace().projects[0], index: 0),
        .restoreProject(project: Project(id: id, name: "p", layout: Layout(rawValue: "later")), index: 7),
    ]

    /// The direct read of `text`: the change, or nil when the reader refuses it.
    static func direct(_ text: String) -> WorkspaceChange? {
        Data(text.utf8).withUnsafeBytes { bytes in
            var reader = StateDirectReader(bytes: bytes)
            guard let change = try? WorkspaceChange(stateReader: &reader), (try? reader.finish()) != nil else {
                return nil
            }
            return change
        }
    }

    @Test(arguments: changes)
    func everyCaseReadsAsJSONDecoderReadsIt(change: WorkspaceChange) throws {
        let text = String(decoding: try JSONEncoder().encode(change), as: UTF8.self)
        #expect(Self.direct(text) == change, "\(text)")
        #expect(try JSONDecoder().decode(WorkspaceChange.self, from: Data(text.utf8)) == change)
    }

    /// Records `JSONEncoder` did not write as they are that `JSONDecoder` reads: the direct read reads them too.
    @Test(arguments: [
        #"{"deleteTab":{"id":"00000000-0000-4000-8000-000000000001","extra":[1,{"a":2}]}}"#,
        #"{"updateOwner":{"alias":null,"email":"e"}}"#,
        #"{"updateOwner":{}}"#,
        #"{"setActiveProject":{"id":null}}"#,
        #"{"setActiveProject":{}}"#,
        #" { "focusTab" : { "id" : "00000000-0000-4000-8000-000000000001" } } "#,
        #"{"restoreProject":{"index":2,"project":{"id":"00000000-0000-4000-8000-000000000001","name":"n","layout":"x","panes":[],"more":[1]}}}"#,
        #"{"restoreWorkspace":{"workspace":{"projects":[],"favorites":[],"owner":{"alias":"","email":""},"k":"v"}}}"#,
        #"{"addFavorite":{"id":"00000000-0000-4000-8000-000000000001","name":"n","path":"/p","createdAt":1e2}}"#,
    ])
    func aRecordJSONDecoderReadsIsReadTheSame(text: String) throws {
        let decoded = try JSONDecoder().decode(WorkspaceChange.self, from: Data(text.utf8))
        #expect(Self.direct(text) == decoded)
    }

    /// Records a journal could hold that are not what `JSONEncoder` writes: the direct read gives what
    /// `JSONDecoder` gives, or refuses (and the replay then asks `JSONDecoder`, which names the defect).
    @Test(arguments: [
        #"{"deleteTab":{"id":"00000000-0000-4000-8000-000000000001"},"deletePane":{"id":"x"}}"#,
        #"{"deleteTab":{"id":"00000000-0000-4000-8000-000000000001","id":"00000000-0000-4000-8000-000000000002"}}"#,
        #"{"deleteTab":{"id":7}}"#,
        #"{"deleteTab":{"id":null}}"#,
        #"{"deleteTab":{}}"#,
        #"{"renameEverything":{}}"#,
        #"{}"#,
        #"[]"#,
        #"{"createProject":{"id":"00000000-0000-4000-8000-000000000001","name":"n","layout":5}}"#,
        #"{"addFavorite":{"id":"00000000-0000-4000-8000-000000000001","name":"n","path":"/p","createdAt":"2025"}}"#,
        #"{"deleteTab":{"id":"00000000-0000-4000-8000-000000000001"}} x"#,
        #"{"restoreProject":{"project":{"id":"00000000-0000-4000-8000-000000000001","name":"n","layout":"x","panes":[]}}}"#,
        #"{"restoreProject":{"index":1.5,"project":{"id":"00000000-0000-4000-8000-000000000001","name":"n","layout":"x","panes":[]}}}"#,
        #"{"restoreWorkspace":{"workspace":[]}}"#,
        #"{"restoreWorkspace":{}}"#,
    ])
    func aRecordReadsAsJSONDecoderReadsItOrIsRefused(text: String) {
        let decoded = try? JSONDecoder().decode(WorkspaceChange.self, from: Data(text.utf8))
        guard let read = Self.direct(text) else { return }
        #expect(read == decoded, "direct \(read) ≠ JSONDecoder \(String(describing: decoded))")
    }
}
