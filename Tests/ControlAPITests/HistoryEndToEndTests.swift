import Foundation
import Testing

/// `workspacectl history`, `show --at`, `restore --at [--project]` and `undo` against the real daemon, whose
/// default configuration keeps history.
@Suite("workspacectl goes back in time against the real daemon")
struct HistoryEndToEndTests {
    /// The entries of `workspacectl history --json`.
    static func entries(_ daemon: LiveDaemon, _ arguments: [String] = []) async throws -> [[String: Any]] {
        let page = try await workspacectlJSON(daemon, ["history"] + arguments) as? [String: Any]
        return page?["entries"] as? [[String: Any]] ?? []
    }

    @Test func historyShowAtRestoreAndUndo() async throws {
        let daemon = try LiveDaemon()
        try await daemon.start()
        let created = try await workspacectlJSON(daemon, ["project", "create", "Alpha"]) as? [String: Any]
        let projectID = try #require((created?["value"] as? [String: Any])?["id"] as? String)
        // A fresh state's history starts at its initial state, which the start kept: the creation is listed too.
        #expect(try await workspacectl(daemon, ["flush"]).status == 0)
        #expect(try await workspacectl(daemon, ["project", "rename", projectID, "Beta"]).status == 0)  // 2
        #expect(try await workspacectl(daemon, ["project", "delete", projectID]).status == 0)  // 3

        let listed = try await Self.entries(daemon, ["--project", String(projectID.prefix(8))])
        #expect(listed.compactMap { $0["revision"] as? Int } == [1, 2, 3], "\(listed)")
        #expect(
            listed.compactMap { $0["operation"] as? String } == ["project.create", "project.update", "project.delete"])
        let text = try await workspacectl(daemon, ["history"])
        #expect(text.status == 0 && text.output.contains("project.delete") && text.output.contains("uid "))

        let shown = try await workspacectl(daemon, ["show", "--at", "2"])
        #expect(shown.status == 0 && shown.output.contains("Beta"), "\(shown.output)")
        #expect(shown.output.contains("revision 2 (ETag"))

        let undone = try await workspacectl(daemon, ["undo"])
        #expect(undone.status == 0, "\(undone.output)")
        #expect(undone.output.contains("undid revision 3 (project.delete"), "\(undone.output)")
        var workspace = try await daemon.client().workspace().workspace
        #expect(workspace.projects.map(\.name) == ["Beta"] && workspace.projects.first?.id.text == projectID)

        let restored = try await workspacectl(
            daemon, ["restore", "--at", "1", "--project", String(projectID.prefix(6)), "--durable"])
        #expect(restored.status == 0, "\(restored.output)")
        #expect(restored.output.contains("restored project \(projectID) (Alpha) as at revision 1"))
        workspace = try await daemon.client().workspace().workspace
        #expect(workspace.projects.map(\.name) == ["Alpha"])

        let whole = try await workspacectlJSON(daemon, ["restore", "--at", "3"]) as? [String: Any]
        #expect(whole?["revision"] as? Int == 6)
        #expect(try await daemon.client().workspace().workspace.projects.isEmpty)
        let newest = try await Self.entries(daemon, ["--limit", "1"])
        #expect(newest.first?["operation"] as? String == "workspace.restore")

        let refused = try await workspacectl(daemon, ["restore", "--at", "99"])
        #expect(refused.status == 1 && refused.output.contains("404 not_found"), "\(refused.output)")
        #expect(await daemon.stop() == 0)
    }
}
