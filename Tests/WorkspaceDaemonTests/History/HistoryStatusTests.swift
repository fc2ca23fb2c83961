import Foundation
import StateStore
import Testing
import WorkspaceAPI

/// `GET /v1/status` says what history is kept: `history`, or `null` when none is (docs/api.md, "History").
@Suite("History in the status")
struct HistoryStatusTests {
    @Test func theStatusDescribesTheHistoryKept() async throws {
        let server = try await HistoryServer(
            history: HistoryConfiguration(keepSeconds: 3 * 86_400, maximumByteCount: 8 << 20))
        let project = try await server.createProject("P")
        try server.snapshot()
        try await server.rename(project, to: "Q")
        let status = try await server.send(.GET, "/v1/status")
        #expect(status.status == .ok)
        let history = try #require(status.json["history"] as? [String: Any], "\(status.text)")
        #expect(history["directory"] as? String == server.historyDirectory)
        #expect(history["oldestRevision"] as? Int == 0)
        #expect(history["oldestTime"] is String, "\(history)")
        #expect(history["keepSeconds"] as? Int == 3 * 86_400 && history["maximumBytes"] as? Int == 8 << 20)
        #expect((history["snapshots"] as? Int ?? 0) >= 1 && (history["files"] as? Int ?? 0) >= 1, "\(history)")
        #expect((history["bytes"] as? Int ?? 0) > 0 && history["segments"] is Int, "\(history)")
        #expect((history["damaged"] as? [Any])?.isEmpty == true)
        let decoded = try APICoding.decoder.decode(StatusResponse.self, from: Data(status.body))
        let engine = try #require(server.state.historyStatus)
        #expect(decoded.history?.oldestRevision == engine.oldestRevision)
        #expect(decoded.history?.files == engine.fileCount && decoded.history?.bytes == engine.byteCount)
        #expect(decoded.history?.snapshots == engine.snapshotCount && decoded.history?.segments == engine.segmentCount)
        await server.stop()
    }

    @Test func noHistoryKeptIsNull() async throws {
        let server = try await HistoryServer(history: .off)
        let status = try await server.send(.GET, "/v1/status")
        #expect(status.status == .ok)
        #expect(status.json.keys.contains("history") && status.json["history"] is NSNull, "\(status.text)")
        #expect(try APICoding.decoder.decode(StatusResponse.self, from: Data(status.body)).history == nil)
        await server.stop()
    }
}
