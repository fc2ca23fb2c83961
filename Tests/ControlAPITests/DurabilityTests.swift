import Foundation
import Testing
import WorkspaceAPI
import WorkspaceModel

@Suite("durable acknowledgements and If-Match against the real daemon")
struct DurabilityTests {
    @Test("every answered change is served after a SIGKILL; a durable one is answered once it is on the device")
    func answeredChangesSurviveSigkill() async throws {
        // No timed snapshot within the test (a minute): only the change journal holds the changes.
        let daemon = try LiveDaemon(debounce: 60_000, maximumDelay: 60_000)
        try await daemon.start()
        let client = daemon.client()

        let plain = try await client.addFavorite(name: "Plain", path: "/plain")
        #expect(plain.durableRevision == nil)
        let plainID = try #require(plain.value?.id.text)
        #expect(!daemon.idsOnDisk("favorites").contains(plainID), "no snapshot yet: the journal holds it")

        let durable = try await client.createProject(name: "Durable", layout: .split, durable: true)
        let durableID = try #require(durable.value?.id.text)
        #expect((durable.durableRevision ?? 0) >= durable.revision)
        let status = try await client.status()
        #expect(status.durableRevision >= durable.revision)
        #expect((status.journal?.syncedRevision ?? 0) >= durable.revision, "the journal's fdatasync made it durable")

        let plainAgain = try await client.addFavorite(name: "Plain again", path: "/plain2")
        let viaCommand = try await workspacectlJSON(daemon, ["favorite", "add", "--durable", "Durable", "/durable"])
        let change = try #require(viaCommand as? [String: Any])
        let favoriteID = try #require((change["value"] as? [String: Any])?["id"] as? String)
        #expect((change["durableRevision"] as? Int ?? 0) >= (change["revision"] as? Int ?? .max))

        await daemon.kill()
        try await daemon.start()
        let restarted = daemon.client()
        let favorites = Set(try await restarted.favorites().map(\.id.text))
        #expect(favorites == [plainID, plainAgain.value!.id.text, favoriteID.lowercased()])
        #expect(try await restarted.projects().map(\.id.text) == [durableID])
        let after = try await restarted.status()
        #expect(after.revision == (change["revision"] as? Int).map(UInt64.init), "revisions continue after the replay")
        await daemon.stop()
    }

    @Test("If-Match with a stale ETag is 412 and changes nothing; the current one applies")
    func staleRevision() async throws {
        let daemon = try LiveDaemon()
        try await daemon.start()
        let client = daemon.client()
        let first = try await client.createProject(name: "One", layout: .single)
        let stale = first.etag
        _ = try await client.addFavorite(name: "Moves", path: "/m")
        let before = try await client.workspace()
        do {
            _ = try await client.addFavorite(name: "Stale", path: "/s", ifMatch: stale)
            Issue.record("a stale If-Match was accepted")
        } catch {
            guard case .refused(let status, let apiError) = error else {
                Issue.record("expected a refusal, got \(error)")
                return
            }
            #expect(status == 412)
            #expect(apiError.code == APIErrorCode.revisionMismatch)
        }
        let after = try await client.workspace()
        #expect(after == before)
        let current = try await client.addFavorite(name: "Current", path: "/c", ifMatch: before.etag)
        #expect(current.revision == before.revision + 1)
        await daemon.stop()
    }

    @Test("GET /v1/workspace carries the lineage and revision as ETag")
    func etag() async throws {
        let daemon = try LiveDaemon()
        try await daemon.start()
        _ = try await daemon.client().addFavorite(name: "x", path: "/x")
        let response = try await rawSend(daemon, "GET", "/v1/workspace")
        #expect(response.status == 200)
        let lineage = try await daemon.client().status().lineage ?? ""
        #expect(lineage.count == 16)
        #expect(response.headers.first(name: "ETag") == "\"\(lineage).1\"")
        await daemon.stop()
    }
}
