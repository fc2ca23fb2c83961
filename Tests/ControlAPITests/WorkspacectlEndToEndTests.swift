import Foundation
import Testing

@Suite("workspacectl against the real daemon")
struct WorkspacectlEndToEndTests {
    @Test("every operation through workspacectl, checked in the daemon's state")
    func everyOperation() async throws {
        let daemon = try LiveDaemon()
        try await daemon.start()

        let status = try await workspacectl(daemon, ["status"])
        #expect(status.status == 0)
        #expect(status.output.contains(daemon.statePath))
        #expect(status.output.contains("journal  ") && status.output.contains("since the snapshot of revision"))

        let created = try await workspacectlJSON(daemon, ["project", "create", "Alpha", "--layout", "split"])
        let project = try #require((created as? [String: Any])?["value"] as? [String: Any])
        let projectID = try #require(project["id"] as? String)
        #expect(project["layout"] as? String == "split")

        #expect(try await workspacectl(daemon, ["project", "rename", projectID, "Beta"]).status == 0)
        #expect(try await workspacectl(daemon, ["project", "layout", projectID, "quad"]).status == 0)
        let shown = try await workspacectlJSON(daemon, ["project", "show", projectID]) as? [String: Any]
        #expect(shown?["name"] as? String == "Beta")
        #expect(shown?["layout"] as? String == "quad")

        let paneChange = try await workspacectlJSON(
            daemon, ["pane", "add", projectID, "/srv", "--view-mode", "icons"])
        let paneID = try #require(((paneChange as? [String: Any])?["value"] as? [String: Any])?["id"] as? String)
        #expect(
            try await workspacectl(daemon, ["pane", "set", paneID, "--folder", "/opt", "--view-mode", "columns"]).status
                == 0)

        let tabChange = try await workspacectlJSON(daemon, ["tab", "open", paneID, "/opt/a"])
        let tabID = try #require(((tabChange as? [String: Any])?["value"] as? [String: Any])?["id"] as? String)
        let secondTab = try await workspacectlJSON(daemon, ["tab", "open", paneID, "/opt/b"])
        let secondID = try #require(((secondTab as? [String: Any])?["value"] as? [String: Any])?["id"] as? String)
        #expect(try await workspacectl(daemon, ["tab", "focus", tabID]).status == 0)

        var workspace = try await daemon.client().workspace().workspace
        var pane = try #require(workspace.projects.first?.panes.first)
        #expect(pane.folder == "/opt" && pane.viewMode.rawValue == "columns")
        #expect(pane.tabs.map(\.id.text) == [tabID, secondID])
        #expect(pane.focusedTab?.id.text == tabID)

        #expect(try await workspacectl(daemon, ["tab", "close", secondID]).status == 0)

        let favoriteChange = try await workspacectlJSON(daemon, ["favorite", "add", "Home", "/home/ana"])
        let favoriteID = try #require(
            ((favoriteChange as? [String: Any])?["value"] as? [String: Any])?["id"] as? String)
        let favorites = try await workspacectlJSON(daemon, ["favorite", "list"]) as? [[String: Any]]
        #expect(favorites?.compactMap { $0["id"] as? String } == [favoriteID])

        #expect(try await workspacectl(daemon, ["active", "set", projectID]).status == 0)
        let active = try await workspacectlJSON(daemon, ["active", "get"]) as? [String: Any]
        #expect((active?["projectID"] as? String)?.lowercased() == projectID.lowercased())

        #expect(
            try await workspacectl(daemon, ["owner", "set", "--alias", "ana", "--email", "ana@example.org"]).status == 0
        )
        let owner = try await workspacectl(daemon, ["owner", "show"])
        #expect(owner.output.contains("ana <ana@example.org>"))

        let shownAll = try await workspacectl(daemon, ["show"])
        #expect(shownAll.output.contains("Beta") && shownAll.output.contains("Home"))

        let flushed = try await workspacectlJSON(daemon, ["flush"]) as? [String: Any]
        let revision = try #require(flushed?["revision"] as? Int)
        #expect(flushed?["durableRevision"] as? Int == revision)
        #expect(daemon.idsOnDisk("projects") == [projectID.lowercased()])
        #expect(daemon.idsOnDisk("favorites") == [favoriteID.lowercased()])

        workspace = try await daemon.client().workspace().workspace
        pane = try #require(workspace.projects.first?.panes.first)
        #expect(pane.tabs.map(\.id.text) == [tabID])
        #expect(workspace.owner.alias == "ana")

        #expect(try await workspacectl(daemon, ["favorite", "remove", favoriteID]).status == 0)
        #expect(try await workspacectl(daemon, ["active", "clear"]).status == 0)
        #expect(try await workspacectl(daemon, ["pane", "remove", paneID]).status == 0)
        #expect(try await workspacectl(daemon, ["project", "delete", projectID, "--durable"]).status == 0)
        workspace = try await daemon.client().workspace().workspace
        #expect(workspace.projects.isEmpty && workspace.favorites.isEmpty && workspace.activeProjectID == nil)
        await daemon.stop()
    }

    @Test("a refusal exits 1 with the daemon's message; a stopped daemon exits 69")
    func exitCodes() async throws {
        let daemon = try LiveDaemon()
        try await daemon.start()
        let missing = try await workspacectl(daemon, ["project", "delete", UUID().uuidString])
        #expect(missing.status == 1)
        #expect(missing.output.contains("not_found"))
        let badName = try await workspacectl(daemon, ["project", "create", String(repeating: "x", count: 257)])
        #expect(badName.status == 1)
        #expect(badName.output.contains("field: name"))
        #expect(await daemon.stop() == 0)
        let stopped = try await workspacectl(daemon, ["status"])
        #expect(stopped.status == 69)
        #expect(stopped.output.contains("systemctl status workspaced"))
    }
}
