import Foundation
import TestSupport
import Testing

/// API tokens against the real `workspaced`: workspacectl manages them, curl and workspacectl present them.
@Suite("API tokens against the real daemon", .serialized)
struct TokenEndToEndTests {
    static let tokenRefusedID = "84ea0680f77e4daf8486689b663a70bb"
    static let secretsDisabledID = "d79dab42d84b4ae5a2a80835da9d401b"

    /// Creates a token with workspacectl (as root) and returns it.
    func createToken(_ daemon: LiveDaemon, scope: String) async throws -> (token: String, id: String) {
        let created = try await workspacectl(daemon, ["token", "create", "e2e \(scope)", "--scope", scope])
        try #require(created.status == 0, "\(created.output)")
        let token = try #require(created.output.split(separator: "\n").first.map(String.init))
        #expect(token.hasPrefix("wsd_") && created.output.contains("shown only this once"))
        return (token, String(token.dropFirst(4).prefix(12)))
    }

    @Test func aWrongTokenGets401AndOneWarningNamingItsIDAndNeverTheSecret() async throws {
        let daemon = try LiveDaemon()
        try await daemon.start()
        let (token, id) = try await createToken(daemon, scope: "read")
        let secret = String(token.dropFirst(17))
        // One character changed in the middle (the last one carries padding bits: changing it can make the text
        // a non-canonical encoding, which is malformed rather than a wrong secret).
        var characters = Array(secret)
        characters[10] = characters[10] == "A" ? "B" : "A"
        let wrongSecret = String(characters)
        let wrong = "wsd_\(id)_" + wrongSecret
        let refused = try await curl(daemon, "GET", "/v1/workspace", headers: ["Authorization: Bearer \(wrong)"])
        #expect(refused.status == 401)
        #expect((refused.object["error"] as? [String: Any])?["code"] as? String == "unauthorized")
        let warnings = daemon.log.split(separator: "\n").filter { $0.contains("message-id=\(Self.tokenRefusedID)") }
        #expect(warnings.count == 1, "\(daemon.log)")
        #expect(warnings.first?.contains("token_id=\(id)") == true && warnings.first?.contains("wrong_secret") == true)
        #expect(
            try await curl(daemon, "GET", "/v1/workspace", headers: ["Authorization: Bearer \(token)"]).status == 200)
        #expect(!daemon.log.contains(secret) && !daemon.log.contains(wrongSecret))
        #expect(await daemon.stop() == 0)
    }

    @Test func scopesFromAnotherUserThenRevocation() async throws {
        let daemon = try LiveDaemon()
        try await daemon.start()
        let (reader, _) = try await createToken(daemon, scope: "read")
        let (writer, writerID) = try await createToken(daemon, scope: "write")
        let favorite = #"{"name": "x", "path": "/x"}"#
        // uid 65534 is in no access list: only the tokens let it in.
        #expect(try await curl(daemon, "GET", "/v1/workspace", asUser: 65534).status == 403)
        #expect(
            try await curl(daemon, "GET", "/v1/workspace", headers: ["Authorization: Bearer \(reader)"], asUser: 65534)
                .status == 200)
        #expect(
            try await curl(
                daemon, "POST", "/v1/favorites", body: favorite, headers: ["Authorization: Bearer \(reader)"],
                asUser: 65534
            ).status == 403)
        #expect(
            try await curl(
                daemon, "POST", "/v1/favorites", body: favorite, headers: ["Authorization: Bearer \(writer)"],
                asUser: 65534
            ).status == 201)
        // workspacectl sends WORKSPACED_TOKEN; a read token's change is refused (exit 1).
        let change = try await workspacectl(
            daemon, ["favorite", "add", "y", "/y"], environment: ["WORKSPACED_TOKEN": reader])
        #expect(change.status == 1 && change.output.contains("403 forbidden"))
        #expect(try await workspacectl(daemon, ["favorite", "list", "--token", writer]).status == 0)
        let revoke = try await workspacectl(daemon, ["token", "revoke", writerID])
        #expect(revoke.status == 0 && revoke.output.contains("revoked token \(writerID)"))
        let after = try await curl(daemon, "GET", "/v1/workspace", headers: ["Authorization: Bearer \(writer)"])
        #expect(after.status == 401)
        let list = try await workspacectl(daemon, ["token", "list"])
        #expect(list.output.contains(writerID) && list.output.contains("REVOKED"))
        #expect(await daemon.stop() == 0)
    }

    @Test func statusShowsTheInstallationWhichARestartKeepsAlongWithTheTokens() async throws {
        let daemon = try LiveDaemon()
        try await daemon.start()
        let (token, _) = try await createToken(daemon, scope: "read")
        let first = try await daemon.client().status()
        let installation = try #require(first.installation)
        #expect(first.secrets?.state == "enabled" && first.secrets?.keySource == "key-file")
        let text = try await workspacectl(daemon, ["status"])
        #expect(text.output.contains("installation") && text.output.contains(installation.id))
        #expect(text.output.contains("secrets") && text.output.contains("enabled"))
        #expect(await daemon.stop() == 0)
        try await daemon.start()
        #expect(try await daemon.client().status().installation == installation)
        #expect(try await curl(daemon, "GET", "/v1/status", headers: ["Authorization: Bearer \(token)"]).status == 200)
        #expect(await daemon.stop() == 0)
    }

    @Test func anUnreadableStoreDisablesTokensButTheWorkspaceIsServed() async throws {
        let daemon = try LiveDaemon()
        try await daemon.start()
        let (token, _) = try await createToken(daemon, scope: "read")
        #expect(await daemon.stop() == 0)
        let path = daemon.stateDirectory + "/secrets.json.enc"
        let stored = try Data(contentsOf: URL(fileURLWithPath: path))
        try stored.prefix(stored.count / 2).write(to: URL(fileURLWithPath: path))
        try await daemon.start()
        let status = try await daemon.client().status()
        #expect(status.secrets?.state == "disabled" && status.secrets?.reasonCode == "cannot_open")
        #expect(status.installation != nil)
        #expect(daemon.log.contains("message-id=\(Self.secretsDisabledID)"))
        let refused = try await curl(daemon, "GET", "/v1/workspace", headers: ["Authorization: Bearer \(token)"])
        #expect(refused.status == 401)
        #expect(((refused.object["error"] as? [String: Any])?["message"] as? String)?.contains("disabled") == true)
        #expect(try await curl(daemon, "GET", "/v1/workspace").status == 200)
        let shown = try await workspacectl(daemon, ["status"])
        #expect(shown.output.contains("DISABLED"))
        #expect(await daemon.stop() == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == stored.prefix(stored.count / 2), "left as it is")
    }
}
