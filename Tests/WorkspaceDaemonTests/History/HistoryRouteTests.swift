import Foundation
import NIOHTTP1
import StateStore
import Testing
import WorkspaceAPI
import WorkspaceModel

/// `GET /v1/history` and `GET /v1/workspace?at=` over a journaled state that keeps history, through a real client
/// on the socket (docs/api.md, "History").
@Suite("History: the changes kept and the workspace at a revision")
struct HistoryRouteTests {
    /// The entries of a `GET /v1/history` answer.
    static func entries(_ exchange: HistoryServer.Exchange) -> [[String: Any]] {
        exchange.json["entries"] as? [[String: Any]] ?? []
    }

    /// The revisions of a `GET /v1/history` answer's entries.
    static func revisions(_ exchange: HistoryServer.Exchange) -> [Int] {
        entries(exchange).compactMap { $0["revision"] as? Int }
    }

    @Test func everyChangeIsListedWithItsOperationRecordsTimeAndPeer() async throws {
        let server = try await HistoryServer()
        var times: [Date] = []
        let project = try await server.createProject("Site")
        times.append(server.scheduler.date)
        server.scheduler.advance(by: .seconds(5))
        try await server.rename(project, to: "Web")
        times.append(server.scheduler.date)
        server.scheduler.advance(by: .seconds(61))
        let pane = try await server.send(.POST, "/v1/projects/\(project)/panes", #"{"folder": "/srv"}"#)
        let paneID = try #require(pane.value["id"] as? String)
        times.append(server.scheduler.date)
        #expect(try await server.send(.PATCH, "/v1/owner", #"{"alias": "ada"}"#).status == .ok)
        times.append(server.scheduler.date)

        let history = try await server.send(.GET, "/v1/history")
        #expect(history.status == .ok, "\(history.text)")
        #expect(Self.revisions(history) == [1, 2, 3, 4])
        let entries = Self.entries(history)
        #expect(
            entries.map { $0["operation"] as? String } == [
                "project.create", "project.update", "pane.create", "owner.update",
            ])
        #expect(
            entries.map { ($0["ids"] as? [String])?.map { $0.lowercased() } }
                == [[project], [project], [paneID, project], []].map { $0.map { $0.lowercased() } })
        #expect(entries.allSatisfy { $0["peer"] as? String == HistoryServer.peer }, "\(entries)")
        // Times are whole seconds on the wire, as every date of the API.
        #expect(
            entries.map { $0["time"] as? String }
                == times.map {
                    Date(timeIntervalSince1970: $0.timeIntervalSince1970.rounded(.down)).formatted(.iso8601)
                })
        #expect(history.json["currentRevision"] as? Int == 4)
        #expect(history.json["oldestRevision"] as? Int == 0)
        #expect(history.json["hasMore"] as? Bool == false)
        await server.stop()
    }

    @Test func sinceLimitAndRecordChooseThePage() async throws {
        let server = try await HistoryServer()
        let alpha = try await server.createProject("Alpha")
        let beta = try await server.createProject("Beta")
        try await server.rename(alpha, to: "A2")
        try await server.rename(beta, to: "B2")
        try await server.rename(alpha, to: "A3")

        let after2 = try await server.send(.GET, "/v1/history?since=2")
        #expect(Self.revisions(after2) == [3, 4, 5] && after2.json["hasMore"] as? Bool == false)
        let firstTwo = try await server.send(.GET, "/v1/history?since=1&limit=2")
        #expect(Self.revisions(firstTwo) == [2, 3] && firstTwo.json["hasMore"] as? Bool == true)
        let newestTwo = try await server.send(.GET, "/v1/history?limit=2")
        #expect(Self.revisions(newestTwo) == [4, 5], "without since, the newest, oldest first")
        #expect(newestTwo.json["hasMore"] as? Bool == true)
        let newestAll = try await server.send(.GET, "/v1/history?limit=5")
        #expect(Self.revisions(newestAll) == [1, 2, 3, 4, 5] && newestAll.json["hasMore"] as? Bool == false)
        let ofAlpha = try await server.send(.GET, "/v1/history?record=\(alpha)")
        #expect(Self.revisions(ofAlpha) == [1, 3, 5])
        let ofAlphaUpper = try await server.send(.GET, "/v1/history?record=\(alpha.uppercased())&since=1")
        #expect(Self.revisions(ofAlphaUpper) == [3, 5], "an id in any letter case")
        let none = try await server.send(.GET, "/v1/history?since=5")
        #expect(none.status == .ok && Self.revisions(none).isEmpty && none.json["hasMore"] as? Bool == false)
        await server.stop()
    }

    @Test func aProjectsHistoryHoldsTheChangesOfItsPanesAndTabs() async throws {
        let server = try await HistoryServer()
        let alpha = try await server.createProject("Alpha")  // 1
        let pane = try await server.send(.POST, "/v1/projects/\(alpha)/panes", #"{"folder": "/a"}"#)  // 2
        let paneID = try #require(pane.value["id"] as? String)
        let tab = try await server.send(.POST, "/v1/panes/\(paneID)/tabs", #"{"folder": "/a/t"}"#)  // 3
        let tabID = try #require(tab.value["id"] as? String)
        #expect(try await server.send(.POST, "/v1/tabs/\(tabID)/focus").status == .ok)  // 4
        try await server.rename(alpha, to: "Alpha 2")  // 5
        let beta = try await server.createProject("Beta")  // 6
        #expect(try await server.send(.POST, "/v1/projects/\(beta)/panes", #"{"folder": "/b"}"#).status == .created)
        #expect(try await server.send(.DELETE, "/v1/tabs/\(tabID)").status == .ok)  // 8
        #expect(try await server.send(.PATCH, "/v1/panes/\(paneID)", #"{"viewMode": "icons"}"#).status == .ok)  // 9
        #expect(try await server.send(.DELETE, "/v1/panes/\(paneID)").status == .ok)  // 10

        #expect(
            Self.revisions(try await server.send(.GET, "/v1/history?record=\(alpha)")) == [1, 2, 3, 4, 5, 8, 9, 10])
        #expect(Self.revisions(try await server.send(.GET, "/v1/history?record=\(paneID)")) == [2, 3, 4, 8, 9, 10])
        #expect(Self.revisions(try await server.send(.GET, "/v1/history?record=\(tabID)")) == [3, 4, 8])
        #expect(Self.revisions(try await server.send(.GET, "/v1/history?record=\(beta)")) == [6, 7])
        // From a later revision: the pane and tab that existed then are followed from the workspace at it.
        let later = try await server.send(.GET, "/v1/history?record=\(alpha)&since=3&limit=3")
        #expect(Self.revisions(later) == [4, 5, 8] && later.json["hasMore"] as? Bool == true)

        // A project put back brings its pane and tab back into its history; a whole restore may touch anything.
        #expect(try await server.send(.POST, "/v1/projects/\(alpha)/restore", #"{"at": 5}"#).status == .ok)  // 11
        #expect(try await server.send(.DELETE, "/v1/tabs/\(tabID)").status == .ok)  // 12
        #expect(try await server.send(.POST, "/v1/restore", #"{"at": 1}"#).status == .ok)  // 13
        #expect(Self.revisions(try await server.send(.GET, "/v1/history?record=\(alpha)&since=10")) == [11, 12, 13])
        #expect(Self.revisions(try await server.send(.GET, "/v1/history?record=\(beta)&since=10")) == [13])
        await server.stop()
    }

    @Test func withoutLimitAPageHoldsAHundredEntries() async throws {
        let server = try await HistoryServer()
        for index in 0..<101 {
            #expect(try await server.send(.PATCH, "/v1/owner", #"{"alias": "a\#(index)"}"#).status == .ok)
        }
        let oldest = try await server.send(.GET, "/v1/history?since=0")
        #expect(Self.revisions(oldest) == Array(1...100) && oldest.json["hasMore"] as? Bool == true)
        let newest = try await server.send(.GET, "/v1/history")
        #expect(Self.revisions(newest) == Array(2...101))
        #expect(newest.json["hasMore"] as? Bool == true, "without since, hasMore says older changes were left off")
        let most = try await server.send(.GET, "/v1/history?since=0&limit=1000")
        #expect(Self.revisions(most) == Array(1...101))
        await server.stop()
    }

    @Test func theWorkspaceAtARevisionIsTaggedWithIt() async throws {
        let server = try await HistoryServer()
        let project = try await server.createProject("First")
        try await server.rename(project, to: "Second")
        #expect(try await server.send(.DELETE, "/v1/projects/\(project)").status == .ok)

        let atOne = try await server.send(.GET, "/v1/workspace?at=1")
        #expect(atOne.status == .ok, "\(atOne.text)")
        #expect(atOne.headers.first(name: "ETag") == "\"\(server.lineage).1\"")
        #expect(atOne.json["etag"] as? String == "\(server.lineage).1" && atOne.json["revision"] as? Int == 1)
        let names = { (workspace: [String: Any]) in
            (workspace["projects"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        }
        #expect(names(try await server.workspaceJSON(at: 1)) == ["First"])
        #expect(names(try await server.workspaceJSON(at: 2)) == ["Second"])
        #expect(names(try await server.workspaceJSON(at: 3)) == [])
        #expect(names(try await server.workspaceJSON(at: 0)) == [])
        let current = try await server.send(.GET, "/v1/workspace")
        #expect(current.headers.first(name: "ETag") == "\"\(server.lineage).3\"")
        await server.stop()
    }

    @Test func thePastReadsTheSameAfterSnapshotsMovedItIntoTheHistory() async throws {
        let server = try await HistoryServer()
        let project = try await server.createProject("One")
        try server.snapshot()
        try await server.rename(project, to: "Two")
        try server.snapshot()
        try await server.rename(project, to: "Three")
        let atOne = try await server.send(.GET, "/v1/workspace?at=1")
        #expect(atOne.status == .ok, "\(atOne.text)")
        #expect(
            (try await server.workspaceJSON(at: 1)["projects"] as? [[String: Any]])?.first?["name"] as? String == "One")
        #expect(
            (try await server.workspaceJSON(at: 2)["projects"] as? [[String: Any]])?.first?["name"] as? String == "Two")
        #expect(Self.revisions(try await server.send(.GET, "/v1/history?since=0")) == [1, 2, 3])
        await server.stop()
    }

    @Test(arguments: [
        ("/v1/history?since=-1", "since"), ("/v1/history?since=abc", "since"), ("/v1/history?since=", "since"),
        ("/v1/history?since=1.5", "since"), ("/v1/history?since=%2B1", "since"),
        ("/v1/history?since=18446744073709551616", "since"), ("/v1/history?limit=0", "limit"),
        ("/v1/history?limit=1001", "limit"), ("/v1/history?limit=x", "limit"), ("/v1/history?limit=-5", "limit"),
        ("/v1/history?record=nope", "record"), ("/v1/workspace?at=-1", "at"), ("/v1/workspace?at=x", "at"),
        ("/v1/workspace?at=", "at"),
    ])
    func aMalformedParameterIsA400NamingIt(target: String, field: String) async throws {
        let server = try await HistoryServer()
        _ = try await server.createProject("P")
        let response = try await server.send(.GET, target)
        #expect(response.status == .badRequest, "\(response.text)")
        #expect(response.errorCode == "invalid_parameter" && response.errorField == field, "\(response.text)")
        #expect(server.revision == 1)
        await server.stop()
    }

    @Test func aRevisionNotReachedIsA404() async throws {
        let server = try await HistoryServer()
        _ = try await server.createProject("P")
        let history = try await server.send(.GET, "/v1/history?since=9")
        #expect(history.status == .notFound && history.errorCode == "not_found" && history.errorField == "since")
        #expect(history.errorMessage.contains("revision 9"), "\(history.text)")
        let workspace = try await server.send(.GET, "/v1/workspace?at=2")
        #expect(workspace.status == .notFound && workspace.errorCode == "not_found" && workspace.errorField == "at")
        await server.stop()
    }

    @Test func aRevisionOlderThanTheHistoryKeptIsA410NamingTheOldestKept() async throws {
        // One byte of history: every snapshot prunes what the history held.
        let server = try await HistoryServer(history: HistoryConfiguration(keepSeconds: 3600, maximumByteCount: 1))
        let project = try await server.createProject("P")
        for index in 0..<5 { try await server.rename(project, to: "N\(index)") }
        try server.snapshot()
        for index in 5..<10 { try await server.rename(project, to: "N\(index)") }
        try server.snapshot()
        for (target, field) in [("/v1/history?since=1", "since"), ("/v1/workspace?at=1", "at")] {
            let response = try await server.send(.GET, target)
            #expect(response.status == .gone, "\(target): \(response.text)")
            #expect(response.errorCode == "history_pruned" && response.errorField == field, "\(response.text)")
            #expect(response.errorMessage.contains("starts at revision"), "\(response.text)")
        }
        await server.stop()
    }

    @Test func noHistoryKeptIsA404NamingTheConfiguration() async throws {
        let server = try await HistoryServer(history: .off)
        _ = try await server.createProject("A")
        _ = try await server.createProject("B")
        for target in ["/v1/history", "/v1/history?since=0", "/v1/workspace?at=1"] {
            let response = try await server.send(.GET, target)
            #expect(response.status == .notFound && response.errorCode == "history_disabled", "\(response.text)")
            #expect(response.errorMessage.contains("history.keepSeconds"), "\(response.text)")
        }
        let current = try await server.send(.GET, "/v1/workspace?at=2")
        #expect(current.status == .ok, "the current revision is served from memory")
        #expect(current.headers.first(name: "ETag") == "\"\(server.lineage).2\"")
        await server.stop()
    }

    @Test func aDamagedHistoryFileIsA500NamingIt() async throws {
        let server = try await HistoryServer()
        let project = try await server.createProject("P")
        try server.snapshot()
        try await server.rename(project, to: "Q")
        try server.snapshot()
        try await server.rename(project, to: "R")
        let files = try FileManager.default.contentsOfDirectory(atPath: server.historyDirectory)
            .filter { !$0.contains("manifest") }
        try #require(!files.isEmpty, "the snapshots left nothing in \(server.historyDirectory)")
        for name in files {
            let path = server.historyDirectory + "/" + name
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            for index in bytes.indices where index % 7 == 3 { bytes[index] ^= 0x5A }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
        let response = try await server.send(.GET, "/v1/workspace?at=1")
        #expect(response.status == .internalServerError, "\(response.text)")
        #expect(response.errorCode == "history_damaged", "\(response.text)")
        #expect(response.errorMessage.contains(server.historyDirectory), "\(response.text)")
        #expect(server.revision == 3)
        await server.stop()
    }
}
