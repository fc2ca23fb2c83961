import Foundation
import StateStore
import StateStoreTesting
import Testing

@testable import WorkspaceModel
@testable import WorkspaceStorage

/// The control API's changes as the change journal stores them: a journal written by this release must replay in
/// every later one, so the JSON of each case is pinned here, and a journal left by a crash replays onto a state
/// file of every schema version once it is migrated.
@Suite struct WorkspaceChangeTests {
    static let project = WorkspaceID("11111111-1111-4111-8111-111111111111")!
    static let other = WorkspaceID("99999999-9999-4999-8999-999999999999")!
    static let date = Date(timeIntervalSince1970: 1_795_000_000)

    /// Each case, and the JSON a journal of this release holds for it.
    static let pinned: [(WorkspaceChange, String)] = [
        (
            .createProject(id: other, name: "N", layout: .split),
            #"{"createProject":{"id":"99999999-9999-4999-8999-999999999999","name":"N","layout":"split"}}"#
        ),
        (
            .updateProject(id: other, name: "M", layout: nil),
            #"{"updateProject":{"id":"99999999-9999-4999-8999-999999999999","name":"M"}}"#
        ),
        (.deleteProject(id: other), #"{"deleteProject":{"id":"99999999-9999-4999-8999-999999999999"}}"#),
        (.setActiveProject(id: nil), #"{"setActiveProject":{}}"#),
        (
            .createPane(id: other, projectID: project, folder: "/f", viewMode: .icons),
            #"{"createPane":{"id":"99999999-9999-4999-8999-999999999999","projectID":"11111111-1111-4111-8111-111111111111","folder":"/f","viewMode":"icons"}}"#
        ),
        (
            .updatePane(id: other, folder: nil, viewMode: .list),
            #"{"updatePane":{"id":"99999999-9999-4999-8999-999999999999","viewMode":"list"}}"#
        ),
        (.deletePane(id: other), #"{"deletePane":{"id":"99999999-9999-4999-8999-999999999999"}}"#),
        (
            .createTab(id: other, paneID: project, folder: "/t"),
            #"{"createTab":{"id":"99999999-9999-4999-8999-999999999999","paneID":"11111111-1111-4111-8111-111111111111","folder":"/t"}}"#
        ),
        (.deleteTab(id: other), #"{"deleteTab":{"id":"99999999-9999-4999-8999-999999999999"}}"#),
        (.focusTab(id: other), #"{"focusTab":{"id":"99999999-9999-4999-8999-999999999999"}}"#),
        (
            .addFavorite(id: other, name: "F", path: "/p", createdAt: date),
            #"{"addFavorite":{"id":"99999999-9999-4999-8999-999999999999","name":"F","path":"/p","createdAt":816692800}}"#
        ),
        (.deleteFavorite(id: other), #"{"deleteFavorite":{"id":"99999999-9999-4999-8999-999999999999"}}"#),
        (.updateOwner(alias: "a", email: nil), #"{"updateOwner":{"alias":"a"}}"#),
        (
            .restoreWorkspace(
                workspace: Workspace(
                    projects: [Project(id: project, name: "P", layout: .quad)],
                    favorites: [Favorite(id: other, name: "F", path: "/p", createdAt: date)],
                    activeProjectID: project, owner: Owner(alias: "a", email: ""))),
            #"{"restoreWorkspace":{"workspace":{"projects":[{"id":"11111111-1111-4111-8111-111111111111","name":"P","layout":"quad","panes":[]}],"favorites":[{"id":"99999999-9999-4999-8999-999999999999","name":"F","path":"/p","createdAt":816692800}],"activeProjectID":"11111111-1111-4111-8111-111111111111","owner":{"alias":"a","email":""}}}}"#
        ),
        (
            .restoreProject(
                project: Project(
                    id: project, name: "P", layout: .split,
                    panes: [
                        Pane(
                            id: other, folder: "/f", viewMode: .columns, focusedTabIndex: 0,
                            tabs: [Tab(id: WorkspaceID("22222222-2222-4222-8222-222222222222")!, folder: "/t")])
                    ]),
                index: 3),
            #"{"restoreProject":{"project":{"id":"11111111-1111-4111-8111-111111111111","name":"P","layout":"split","panes":[{"id":"99999999-9999-4999-8999-999999999999","folder":"/f","viewMode":"columns","focusedTabIndex":0,"tabs":[{"id":"22222222-2222-4222-8222-222222222222","folder":"/t"}]}]},"index":3}}"#
        ),
    ]

    @Test func everyCaseDecodesFromThePinnedJSONAndRoundTrips() throws {
        for (change, json) in Self.pinned {
            #expect(try JSONDecoder().decode(WorkspaceChange.self, from: Data(json.utf8)) == change, "\(json)")
            let encoded = try JSONEncoder().encode(change)
            #expect(try JSONDecoder().decode(WorkspaceChange.self, from: encoded) == change)
        }
    }

    /// A restore carries whole records, which keep the fields this release does not know: the journal must give
    /// them back as they were, at every level.
    @Test func aRestoredWorkspaceKeepsItsUnknownFieldsThroughTheJournalsJSON() throws {
        let json =
            #"{"restoreWorkspace":{"workspace":{"projects":[{"id":"11111111-1111-4111-8111-111111111111","name":"P","layout":"grid","panes":[],"color":"red"}],"favorites":[],"activeProjectID":null,"owner":{"alias":"a","email":""},"theme":{"dark":true}}}}"#
        let change = try JSONDecoder().decode(WorkspaceChange.self, from: Data(json.utf8))
        guard case .restoreWorkspace(let workspace) = change else {
            Issue.record("\(change) is not a workspace restore")
            return
        }
        #expect(workspace.unknownFields.values.keys.sorted() == ["theme"])
        #expect(workspace.projects.first?.unknownFields.values.keys.sorted() == ["color"])
        #expect(workspace.projects.first?.layout.rawValue == "grid", "a layout from a newer release is kept")
        let again = try JSONDecoder().decode(WorkspaceChange.self, from: try JSONEncoder().encode(change))
        #expect(again == change)
        var applied = sampleWorkspace()
        try change.apply(to: &applied)
        #expect(applied == workspace)
    }

    @Test func aChangeAppliesAsTheModelsMutationsDo() throws {
        var workspace = sampleWorkspace()
        try WorkspaceChange.createProject(id: Self.other, name: "N", layout: .split).apply(to: &workspace)
        try WorkspaceChange.updateProject(id: Self.other, name: "M", layout: .quad).apply(to: &workspace)
        #expect(workspace.project(Self.other)?.name == "M" && workspace.project(Self.other)?.layout == .quad)
        #expect(throws: WorkspaceError.self) {
            try WorkspaceChange.createProject(id: Self.other, name: "again", layout: .split).apply(to: &workspace)
        }
        #expect(!WorkspaceChange.updateProject(id: Self.other, name: "M", layout: .quad).validatesBeforeMutating)
        #expect(WorkspaceChange.updateProject(id: Self.other, name: "M", layout: nil).validatesBeforeMutating)
    }

    @Test(arguments: 1...4)
    func aJournalReplaysOntoAStateFileOfEveryVersion(version: Int) throws {
        let directory = FileManager.default.temporaryDirectory.path + "/journal-v\(version)-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The state file a previous release left, stamped with the revision and lineage its journal continues.
        var text = String(decoding: try Fixtures.data("versions/v\(version).json"), as: UTF8.self)
        text = text.replacingOccurrences(
            of: "{", with: #"{"revision":9,"lineage":"00000000000000ab","#, range: text.range(of: "{"))
        try Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/workspace.json"))
        let changes: [WorkspaceChange] = [
            .createProject(id: Self.other, name: "From the journal", layout: .single),
            .updateProject(id: Self.project, name: "Renamed", layout: nil),
            .addFavorite(id: Self.other, name: "Fav", path: "/fav", createdAt: Self.date),
        ]
        var segment = JournalFraming.frame(
            JournalSegmentFormat.Header(lineage: Lineage(rawValue: "00000000000000ab")!, baseRevision: 9).payload)
        for (offset, change) in changes.enumerated() {
            segment += JournalFraming.frame(
                JournalSegmentFormat.changePayload(
                    revision: 10 + UInt64(offset), change: [UInt8](try JSONEncoder().encode(change))))
        }
        try Data(segment).write(to: URL(fileURLWithPath: directory + "/workspace.json.journal.9"))

        let file = StateFile(path: directory + "/workspace.json", schema: try WorkspaceSchema.make())
        let loaded = try file.load()
        #expect(loaded.report.storedVersion == (version == 1 ? 1 : version))
        let state = try PersistentState(
            file: file, loaded: loaded, journaling: WorkspaceChange.self, scheduler: ManualPersistenceScheduler())
        let replay = try #require(state.journalReplay)
        #expect(replay.recordsReplayed == 3 && replay.keptAside.isEmpty, "v\(version): \(replay)")
        #expect(state.status.revision == 12)
        #expect(state.read { $0.project(Self.other)?.name } == "From the journal")
        #expect(state.read { $0.project(Self.project)?.name } == "Renamed")
        #expect(state.read { $0.favorite(Self.other)?.path } == "/fav")
        file.unlock()
    }
}
