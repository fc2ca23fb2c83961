import Foundation
import Testing
import WorkspaceAPI
import WorkspaceClient
import WorkspaceModel

/// One client call and the exact request it must send.
struct RequestCase: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let method: String
    let target: String
    /// The expected body as JSON text (compared as parsed JSON); `nil` for no body.
    let body: String?
    let ifMatch: String?
    let reply: String
    let call: @Sendable (WorkspaceClient) async throws -> Void

    init(
        _ name: String, _ method: String, _ target: String, body: String? = nil, ifMatch: String? = nil,
        reply: String, call: @escaping @Sendable (WorkspaceClient) async throws -> Void
    ) {
        self.testDescription = name
        self.method = method
        self.target = target
        self.body = body
        self.ifMatch = ifMatch
        self.reply = reply
        self.call = call
    }
}

private let project = WorkspaceID(Sample.projectID)!
private let pane = WorkspaceID(Sample.paneID)!
private let tab = WorkspaceID(Sample.tabID)!
private let favorite = WorkspaceID(Sample.favoriteID)!

private let cases: [RequestCase] = [
    RequestCase("status", "GET", "/v1/status", reply: Sample.status) { _ = try await $0.status() },
    RequestCase("workspace", "GET", "/v1/workspace", reply: Sample.workspace) { _ = try await $0.workspace() },
    RequestCase("projects", "GET", "/v1/projects", reply: "[\(Sample.project)]") { _ = try await $0.projects() },
    RequestCase("project", "GET", "/v1/projects/\(Sample.projectID)", reply: Sample.project) {
        _ = try await $0.project(id: project)
    },
    RequestCase(
        "createProject", "POST", "/v1/projects", body: #"{"name": "Alpha", "layout": "split"}"#,
        reply: Sample.change(Sample.project)
    ) { _ = try await $0.createProject(name: "Alpha", layout: .split) },
    RequestCase(
        "createProject durable", "POST", "/v1/projects?durable=true", body: #"{"name": "A", "layout": "quad"}"#,
        ifMatch: "\"ab12.7\"", reply: Sample.change(Sample.project, durable: "8")
    ) {
        _ = try await $0.createProject(
            name: "A", layout: .quad, durable: true, ifMatch: WorkspaceETag(lineage: "ab12", revision: 7))
    },
    RequestCase(
        "renameProject", "PATCH", "/v1/projects/\(Sample.projectID)", body: #"{"name": "Beta"}"#,
        reply: Sample.change(Sample.project)
    ) { _ = try await $0.renameProject(id: project, name: "Beta") },
    RequestCase(
        "setProjectLayout", "PATCH", "/v1/projects/\(Sample.projectID)?durable=true", body: #"{"layout": "single"}"#,
        ifMatch: "\"ab12.12\"", reply: Sample.change(Sample.project)
    ) {
        _ = try await $0.setProjectLayout(
            id: project, layout: .single, durable: true, ifMatch: WorkspaceETag(lineage: "ab12", revision: 12))
    },
    RequestCase("deleteProject", "DELETE", "/v1/projects/\(Sample.projectID)", reply: Sample.change()) {
        _ = try await $0.deleteProject(id: project)
    },
    RequestCase(
        "addPane", "POST", "/v1/projects/\(Sample.projectID)/panes", body: #"{"folder": "/srv", "viewMode": "icons"}"#,
        reply: Sample.change(Sample.pane)
    ) { _ = try await $0.addPane(projectID: project, folder: "/srv", viewMode: .icons) },
    RequestCase(
        "addPane without view mode", "POST", "/v1/projects/\(Sample.projectID)/panes", body: #"{"folder": "/srv"}"#,
        reply: Sample.change(Sample.pane)
    ) { _ = try await $0.addPane(projectID: project, folder: "/srv") },
    RequestCase(
        "updatePane", "PATCH", "/v1/panes/\(Sample.paneID)?durable=true", body: #"{"viewMode": "columns"}"#,
        ifMatch: "\"ab12.3\"", reply: Sample.change(Sample.pane)
    ) {
        _ = try await $0.updatePane(
            id: pane, viewMode: .columns, durable: true, ifMatch: WorkspaceETag(lineage: "ab12", revision: 3))
    },
    RequestCase("removePane", "DELETE", "/v1/panes/\(Sample.paneID)", reply: Sample.change()) {
        _ = try await $0.removePane(id: pane)
    },
    RequestCase(
        "openTab", "POST", "/v1/panes/\(Sample.paneID)/tabs", body: #"{"folder": "/srv/a"}"#,
        reply: Sample.change(Sample.tab)
    ) { _ = try await $0.openTab(paneID: pane, folder: "/srv/a") },
    RequestCase("closeTab", "DELETE", "/v1/tabs/\(Sample.tabID)?durable=true", reply: Sample.change()) {
        _ = try await $0.closeTab(id: tab, durable: true)
    },
    RequestCase("focusTab", "POST", "/v1/tabs/\(Sample.tabID)/focus", ifMatch: "\"ab12.5\"", reply: Sample.change()) {
        _ = try await $0.focusTab(id: tab, ifMatch: WorkspaceETag(lineage: "ab12", revision: 5))
    },
    RequestCase("favorites", "GET", "/v1/favorites", reply: "[\(Sample.favorite)]") { _ = try await $0.favorites() },
    RequestCase(
        "addFavorite", "POST", "/v1/favorites", body: #"{"name": "Home", "path": "/home/x"}"#,
        reply: Sample.change(Sample.favorite)
    ) { _ = try await $0.addFavorite(name: "Home", path: "/home/x") },
    RequestCase("removeFavorite", "DELETE", "/v1/favorites/\(Sample.favoriteID)", reply: Sample.change()) {
        _ = try await $0.removeFavorite(id: favorite)
    },
    RequestCase("activeProject", "GET", "/v1/active-project", reply: #"{"projectID": null}"#) {
        _ = try await $0.activeProject()
    },
    RequestCase(
        "setActiveProject", "PUT", "/v1/active-project", body: #"{"projectID": "\#(Sample.projectID)"}"#,
        reply: Sample.change()
    ) { _ = try await $0.setActiveProject(project) },
    RequestCase(
        "clear active project", "PUT", "/v1/active-project?durable=true", body: #"{"projectID": null}"#,
        reply: Sample.change()
    ) { _ = try await $0.setActiveProject(nil, durable: true) },
    RequestCase("owner", "GET", "/v1/owner", reply: Sample.owner) { _ = try await $0.owner() },
    RequestCase(
        "updateOwner", "PATCH", "/v1/owner", body: #"{"email": "b@c.d"}"#, reply: Sample.change(Sample.owner)
    ) { _ = try await $0.updateOwner(email: "b@c.d") },
    RequestCase("flush", "POST", "/v1/flush", reply: Sample.change(durable: "8")) { _ = try await $0.flush() },
    RequestCase("history", "GET", "/v1/history", reply: Sample.history) { _ = try await $0.history() },
    RequestCase(
        "history with since, limit and record", "GET",
        "/v1/history?limit=5&record=\(Sample.projectID)&since=7", reply: Sample.history
    ) { _ = try await $0.history(since: 7, limit: 5, record: project) },
    RequestCase("workspace at", "GET", "/v1/workspace?at=4", reply: Sample.workspace) {
        _ = try await $0.workspace(at: 4)
    },
    RequestCase("restore", "POST", "/v1/restore", body: #"{"at": 4}"#, reply: Sample.change()) {
        _ = try await $0.restore(at: 4)
    },
    RequestCase(
        "restore durable", "POST", "/v1/restore?durable=true", body: #"{"at": 0}"#, ifMatch: "\"ab12.9\"",
        reply: Sample.change(durable: "8")
    ) { _ = try await $0.restore(at: 0, durable: true, ifMatch: WorkspaceETag(lineage: "ab12", revision: 9)) },
    RequestCase(
        "restoreProject", "POST", "/v1/projects/\(Sample.projectID)/restore", body: #"{"at": 3}"#,
        ifMatch: "\"ab12.9\"", reply: Sample.change(Sample.project)
    ) { _ = try await $0.restoreProject(id: project, at: 3, ifMatch: WorkspaceETag(lineage: "ab12", revision: 9)) },
]

@Suite("WorkspaceClient requests")
struct ClientRequestTests {
    @Test("sends the method, path, query, If-Match and body the API defines", arguments: cases)
    func sendsExactRequest(_ testCase: RequestCase) async throws {
        let stub = try await StubDaemon(json: testCase.reply)
        let requests = try await withStub(stub) { stub in
            try await testCase.call(WorkspaceClient(socketPath: stub.socketPath, timeout: .seconds(60)))
            return stub.requests
        }
        try #require(requests.count == 1)
        let request = requests[0]
        #expect(request.method == testCase.method)
        #expect(request.target == testCase.target)
        #expect(request.ifMatch == testCase.ifMatch)
        if let body = testCase.body {
            let expected = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? NSDictionary
            #expect(request.json == expected)
            #expect(request.contentType == "application/json")
        } else {
            #expect(request.body.isEmpty)
        }
    }

    @Test("decodes records with dates and keeps unknown fields")
    func decodesResponses() async throws {
        let stub = try await StubDaemon(json: Sample.workspace)
        let response = try await withStub(stub) { stub in
            try await WorkspaceClient(socketPath: stub.socketPath).workspace()
        }
        #expect(response.revision == 9)
        #expect(response.workspace.projects.first?.panes.first?.viewMode == .icons)
        #expect(response.workspace.favorites.first?.createdAt == Date(timeIntervalSince1970: 1_795_316_400))
        #expect(response.workspace.activeProjectID == project)
        #expect(response.workspace.owner.unknownFields.isEmpty == false)
        #expect(response.workspace.unknownFields.isEmpty == false)
    }

    @Test("decodes a history page: times and peers that may be null, record ids")
    func decodesHistory() async throws {
        let stub = try await StubDaemon(json: Sample.history)
        let page = try await withStub(stub) { try await WorkspaceClient(socketPath: $0.socketPath).history() }
        #expect(page.entries.map(\.revision) == [8, 9] && page.oldestRevision == 3 && page.currentRevision == 9)
        #expect(page.entries[0].time == Date(timeIntervalSince1970: 1_795_316_400))
        #expect(page.entries[0].ids == [project] && page.entries[0].peer == "uid 1000 pid 4242")
        #expect(page.entries[1].time == nil && page.entries[1].peer == nil && page.entries[1].ids.isEmpty)
        #expect(page.entries[1].operation == "workspace.restore" && !page.hasMore)
    }

    @Test("decodes the status with optional dates and the change's durable revision")
    func decodesStatusAndChange() async throws {
        let stub = try await StubDaemon(json: Sample.status)
        let status = try await withStub(stub) { try await WorkspaceClient(socketPath: $0.socketPath).status() }
        #expect(status.revision == 42 && status.durableRevision == 40 && status.dirty)
        #expect(status.lastError == "disk full" && status.lastSaveMilliseconds == 12.5)
        let changeStub = try await StubDaemon(json: Sample.change(Sample.favorite, durable: "8"))
        let change = try await withStub(changeStub) {
            try await WorkspaceClient(socketPath: $0.socketPath).addFavorite(
                name: "Home", path: "/home/x", durable: true)
        }
        #expect(change.revision == 8 && change.durableRevision == 8 && change.value?.name == "Home")
    }
}
