import Foundation
import NIOHTTP1
import StateStore
import StateStoreTesting
import Testing
import UnixHTTP
import WorkspaceAPI
import WorkspaceDaemon
import WorkspaceModel
import WorkspaceStorage

/// The control API over one state directory that outlives it: each ``open()`` is a start of the daemon, each
/// ``stop()`` a clean stop (SIGTERM: close and flush) and each ``crash()`` a SIGKILL.
final class RestartableAPI: Sendable {
    let directory: String
    var path: String { directory + "/workspace.json" }

    init() throws {
        directory = FileManager.default.temporaryDirectory.path + "/wsd-etag-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// One run of the daemon on the directory.
    struct Run {
        let file: StateFile<Workspace>
        let loaded: LoadedState<Workspace>
        let state: PersistentState<Workspace>
        let events: EventHub
        let responder: HTTPResponder

        func send(
            _ method: HTTPMethod, _ uri: String, _ body: String? = nil, ifMatch: String? = nil
        ) async
            -> InProcessAPI.Exchange
        {
            var headers = HTTPHeaders()
            if let ifMatch { headers.add(name: "If-Match", value: ifMatch) }
            if body != nil { headers.add(name: "Content-Type", value: "application/json") }
            let response = await responder.respond(
                method, uri, headers: headers, body: Array((body ?? "").utf8), peer: InProcessAPI.root)
            return InProcessAPI.Exchange(status: response.status, headers: response.headers, body: response.body)
        }

        func addFavorite(_ name: String, ifMatch: String? = nil) async -> InProcessAPI.Exchange {
            await send(.POST, "/v1/favorites", #"{"name": "\#(name)", "path": "/\#(name)"}"#, ifMatch: ifMatch)
        }

        /// The `ETag` of `GET /v1/workspace`.
        func etag() async -> String {
            await send(.GET, "/v1/workspace").headers.first(name: "ETag") ?? ""
        }

        /// SIGTERM: refuse changes, flush, record the clean stop, release the lock.
        func stop() throws {
            try state.close()
            file.unlock()
        }

        /// SIGKILL: the lock goes with the process; whatever was not saved is lost.
        func crash() { file.unlock() }
    }

    /// A start: load (importing `legacy` when given and there is no state file) and serve.
    /// The hub keeps the latest `history` events for readers that resume.
    func open(importing legacy: StateImport? = nil, history: Int = EventHub.defaultHistorySize) throws -> Run {
        // The daemon's default policy: salvage what can be read, move the rest aside.
        let file = StateFile(
            path: path, schema: try WorkspaceSchema.make(),
            configuration: StateFileConfiguration(corruptFilePolicy: .salvage))
        let loaded = try legacy.map { try file.load(importing: $0) } ?? file.load()
        let state = PersistentState(file: file, loaded: loaded, scheduler: ManualPersistenceScheduler())
        let events = EventHub(historySize: history)
        let api = ControlAPI(
            state: state, statePath: path, uptime: { .seconds(1) }, logger: .init(label: "test"), events: events)
        return Run(
            file: file, loaded: loaded, state: state, events: events, responder: HTTPResponder(router: api.router()))
    }
}

@Suite("An ETag names one state across restarts, restores, quarantines, salvages and imports")
struct ETagAcrossRestartsTests {
    /// The issue's reproduction: read, restart, another client changes, the first client's If-Match is refused.
    @Test func anETagReadBeforeARestartIsRefusedAfterItOnceTheStateMoved() async throws {
        let directory = try RestartableAPI()
        let first = try directory.open()
        for name in ["A0", "A1", "A2"] { #expect(await first.addFavorite(name).status == .created) }
        let read = await first.etag()
        #expect(read == "\"\(first.state.lineage).3\"")
        try first.stop()

        let second = try directory.open()
        #expect(await second.etag() == read, "nothing changed: the same state, the same ETag")
        let a0 = try #require(second.state.read { $0.favorites.first?.id })
        #expect(await second.send(.DELETE, "/v1/favorites/\(a0)").status == .ok)
        #expect(await second.addFavorite("B0").status == .created)
        #expect(await second.addFavorite("B1").status == .created)
        let late = await second.addFavorite("C", ifMatch: read)
        #expect(late.status == .preconditionFailed && late.errorCode == "revision_mismatch")
        #expect(second.state.read { $0.favorites.map(\.name) } == ["A1", "A2", "B0", "B1"], "nothing changed")
        try second.stop()
    }

    @Test func aMatchingETagIsAcceptedAfterACleanRestart() async throws {
        let directory = try RestartableAPI()
        let first = try directory.open()
        #expect(await first.addFavorite("A").status == .created)
        let read = await first.etag()
        try first.stop()
        let second = try directory.open()
        let change = await second.addFavorite("B", ifMatch: read)
        #expect(change.status == .created)
        #expect(change.json["revision"] as? Int == 2)
        try second.stop()
    }

    @Test func aCrashThatLosesChangesRefusesTheirETagsEvenWhenTheNumbersComeBack() async throws {
        let directory = try RestartableAPI()
        let first = try directory.open()
        #expect(
            await first.send(.POST, "/v1/favorites?durable=true", #"{"name": "A", "path": "/a"}"#).status == .created)
        #expect(await first.addFavorite("lost").status == .created)  // acknowledged, never saved
        let lost = await first.etag()
        #expect(lost == "\"\(first.state.lineage).2\"")
        first.crash()

        let second = try directory.open()
        #expect(second.loaded.report.lineageBreak == .uncleanStop)
        #expect(await second.addFavorite("other").status == .created)
        #expect(second.state.status.revision == 2, "the same number as the lost change")
        let late = await second.addFavorite("C", ifMatch: lost)
        #expect(late.status == .preconditionFailed)
        let message = (late.json["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(message.contains("another lineage"), "\(message)")
        try second.stop()
    }

    @Test func aRestoredBackupRefusesETagsOfTheStateItReplaced() async throws {
        let directory = try RestartableAPI()
        let first = try directory.open()
        #expect(await first.addFavorite("A").status == .created)
        try first.stop()
        let backup = try Data(contentsOf: URL(fileURLWithPath: directory.path))
        let second = try directory.open()
        #expect(await second.addFavorite("B").status == .created)
        let read = await second.etag()
        try second.stop()
        // The operator puts the backup back (revision 1) while the daemon is stopped.
        try backup.write(to: URL(fileURLWithPath: directory.path))
        let third = try directory.open()
        #expect(third.loaded.report.lineageBreak == .changedSinceStop)
        #expect(await third.addFavorite("C").status == .created)  // revision 2 again, of the restored state
        #expect(await third.addFavorite("D", ifMatch: read).status == .preconditionFailed)
        try third.stop()
    }

    @Test func aQuarantinedOrSalvagedFileRefusesETagsOfTheStateBefore() async throws {
        let directory = try RestartableAPI()
        let first = try directory.open()
        #expect(await first.addFavorite("A").status == .created)
        let read = await first.etag()
        try first.stop()
        // A favorite whose name is not a string: the salvage drops it and keeps the rest.
        var root =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory.path)))
            as! [String: Any]
        var favorites = root["favorites"] as! [[String: Any]]
        favorites.append(["id": UUID().uuidString, "name": 7, "path": "/x", "createdAt": "2026-11-25T00:00:00Z"])
        root["favorites"] = favorites
        try JSONSerialization.data(withJSONObject: root).write(to: URL(fileURLWithPath: directory.path))
        let salvaged = try directory.open()
        #expect(salvaged.loaded.report.source == .salvaged)
        #expect(salvaged.state.status.revision == 1)
        #expect(await salvaged.addFavorite("B", ifMatch: read).status == .preconditionFailed)
        let salvagedETag = await salvaged.etag()
        try salvaged.stop()

        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: directory.path))
        let quarantined = try directory.open()
        #expect(quarantined.loaded.report.source == .quarantined)
        #expect(await quarantined.addFavorite("C", ifMatch: salvagedETag).status == .preconditionFailed)
        #expect(await quarantined.addFavorite("C", ifMatch: "\"\(quarantined.state.lineage).0\"").status == .created)
        try quarantined.stop()
    }

    @Test func anImportedStateRefusesETagsOfAnEarlierEmptyState() async throws {
        let directory = try RestartableAPI()
        let empty = try directory.open()
        let read = await empty.etag()  // revision 0 of a state that was never saved
        empty.crash()
        let legacyPath = directory.directory + "/legacy.json"
        let schema = try WorkspaceSchema.make()
        var legacy = schema.initialModel()
        try legacy.addFavorite(name: "Legacy", path: "/legacy", createdAt: Date(timeIntervalSince1970: 1_795_000_000))
        try StateCodec(schema: schema).encode(legacy).write(to: URL(fileURLWithPath: legacyPath))
        let imported = try directory.open(
            importing: StateImport(sourcePath: legacyPath, markerPath: directory.directory + "/imported"))
        #expect(imported.loaded.report.source == .imported)
        #expect(imported.loaded.report.lineageBreak == .imported)
        #expect(await imported.etag() != read)
        #expect(await imported.addFavorite("A", ifMatch: read).status == .preconditionFailed)
        try imported.stop()
    }
}
