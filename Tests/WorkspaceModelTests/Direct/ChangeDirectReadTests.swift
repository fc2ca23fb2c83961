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

/// A replay reads its records with one reader, restarted on each (`StateDirectDecodable.readDocuments`), and applies
/// them in place (`StateChange.applyInPlace`): what one record leaves in the reader must not change the next one's
/// read, and a change that does not apply is named by its position.
@Suite("Changes read and applied in batches")
struct ChangeBatchTests {
    @Test func documentsReadWithOneReaderAreReadAsEachAlone() {
        let texts =
            ChangeDirectReadTests.changes.map { String(decoding: try! JSONEncoder().encode($0), as: UTF8.self) }
            + [#"{"deleteTab":{"id":7}}"#, #"{"renameEverything":{}}"#, #"{"deleteTab":{}}"#]
        // Refused records between accepted ones, so that a refusal mid-read leaves the reader behind.
        var interleaved: [String] = []
        for (index, text) in texts.enumerated() {
            interleaved.append(text)
            if index % 3 == 0 { interleaved.append(#"{"deleteTab":{"id":"00000000-0000-4000-8000-00000000000"#) }
        }
        let buffers = interleaved.map { Array($0.utf8) }
        let batch: (values: [WorkspaceChange?], refusedCount: Int) = withDocuments(buffers) {
            WorkspaceChange.readDocuments($0)
        }
        let alone = interleaved.map { ChangeDirectReadTests.direct($0) }
        #expect(batch.values == alone)
        #expect(batch.refusedCount == alone.filter { $0 == nil }.count)
        #expect(batch.refusedCount > 3 && batch.refusedCount < alone.count)
    }

    @Test func applyingInPlaceNamesTheFirstChangeThatDoesNotApply() throws {
        let id = sequentialID(1)
        let changes: [WorkspaceChange?] = [
            .createProject(id: id, name: "one", layout: .single),
            .updateProject(id: id, name: "two", layout: nil),
            .updateProject(id: sequentialID(9), name: "missing", layout: nil),
            .deleteProject(id: id),
        ]
        var workspace = Workspace()
        let failure = try #require(WorkspaceChange.applyInPlace(changes, to: &workspace))
        #expect(failure.position == 2)
        #expect(failure.error == .notFound(kind: .project, id: sequentialID(9)))
        #expect(workspace.projects.map(\.name) == ["two"], "the changes before it are applied, not those after")
        var other = Workspace()
        #expect(WorkspaceChange.applyInPlace([changes[0], nil], to: &other)?.position == 1)
        var all = Workspace()
        #expect(WorkspaceChange.applyInPlace(Array(changes[0...1]), to: &all) == nil)
        #expect(all.projects.map(\.name) == ["two"])
    }

    /// Calls `body` with a buffer of the documents' bytes, each valid for the call.
    func withDocuments<Result>(
        _ buffers: [[UInt8]], _ body: (UnsafeBufferPointer<UnsafeRawBufferPointer>) -> Result
    ) -> Result {
        let storage = buffers.map { bytes -> UnsafeMutableRawBufferPointer in
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
            copy.copyBytes(from: bytes)
            return copy
        }
        defer { storage.forEach { $0.deallocate() } }
        return storage.map { UnsafeRawBufferPointer($0) }.withUnsafeBufferPointer(body)
    }
}
