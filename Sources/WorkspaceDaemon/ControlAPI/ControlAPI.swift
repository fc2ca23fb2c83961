import FoundationEssentials
import Logging
import NIOHTTP1
import StateStore
import Synchronization
import UnixHTTP
import WorkspaceAPI
import WorkspaceModel
import WorkspaceSecrets
import WorkspaceStorage

/// The control API's behaviour: reads and changes of the workspace through the persistence engine, with
/// durable acknowledgements, `If-Match` revisions and JSON errors. ``router()`` registers it on a
/// ``UnixHTTP/HTTPRouter``; docs/api.md is the contract.
package final class ControlAPI: Sendable {
    /// The release reported by `/v1/status` (``WorkspaceAPI/Release/version``).
    package static let daemonVersion = Release.version

    let state: PersistentState<Workspace>
    let statePath: String
    let uptime: @Sendable () -> Duration
    let logger: Logger
    /// The secret store (API tokens, the installation record), or why it is unavailable.
    let secrets: SecretStoreOpening
    /// What the last load did, for `/v1/status`; `nil` when the API serves a state it did not see loaded.
    let load: LoadStatusSource?
    /// Since when the saves fail, while they do.
    let savesFailingSince: @Sendable () -> Date?
    /// The events of `GET /v1/events`; every change is published to it as it is applied.
    package let events: EventHub
    /// The configuration's warnings now (unknown keys ignored), for `/v1/status`.
    let configurationWarnings: @Sendable () -> [String]
    /// Replication off the host, for `/v1/status` and durable acknowledgements; `nil` when off.
    let replica: DaemonReplica?
    /// The scrub of backups, history and replica (`POST /v1/scrub`, `/v1/status`); `nil` answers 404.
    let scrub: DaemonScrub?
    /// The figures of `GET /v1/metrics`, counted per request and change; `nil` with metrics off.
    let metrics: DaemonMetrics?

    /// An API over `state`.
    ///
    /// - Parameters:
    ///   - statePath: The state file, for `/v1/status`.
    ///   - uptime: How long the daemon has run.
    ///   - secrets: The opened secret store, for the token routes and `/v1/status` (none by default: the token
    ///     routes answer 503 and bearer tokens are refused).
    ///   - load: The report of the load that produced `state` and when it finished, for `/v1/status`.
    ///   - savesFailingSince: Since when the saves fail, while they do (the daemon's STATUS line keeps it).
    ///   - events: Where changes are published for `GET /v1/events` (the daemon's hub also carries its saves).
    ///   - configurationWarnings: The configuration's warnings now (unknown keys it ignored), for `/v1/status`.
    ///   - replica: Replication off the host, when on: its status, and with `replica.durableAcknowledgement` the
    ///     wait of a durable change.
    ///   - scrub: The scrub `POST /v1/scrub` runs and `/v1/status` shows.
    ///   - metrics: The figures `GET /v1/metrics` serves; every request and change is counted in them (a registry
    ///     of the API's own by default); `nil` keeps none (`metrics.enabled = false`), and the route answers 404.
    package init(
        state: PersistentState<Workspace>, statePath: String, uptime: @escaping @Sendable () -> Duration,
        logger: Logger, secrets: SecretStoreOpening = .notOpened(), load: LoadStatusSource? = nil,
        savesFailingSince: @escaping @Sendable () -> Date? = { nil }, events: EventHub = EventHub(),
        configurationWarnings: @escaping @Sendable () -> [String] = { [] }, replica: DaemonReplica? = nil,
        scrub: DaemonScrub? = nil,
        metrics: DaemonMetrics? = DaemonMetrics(
            version: ControlAPI.daemonVersion, schemaVersion: WorkspaceSchema.currentVersion)
    ) {
        self.replica = replica
        self.scrub = scrub
        self.metrics = metrics
        self.state = state
        self.statePath = statePath
        self.uptime = uptime
        self.logger = logger
        self.secrets = secrets
        self.load = load
        self.savesFailingSince = savesFailingSince
        self.events = events
        self.configurationWarnings = configurationWarnings
    }

    /// Runs `body`, turning an ``APIFailure`` into its JSON response.
    func respond(_ body: () async throws -> HTTPResponse) async -> HTTPResponse {
        do {
            return try await body()
        } catch let failure as APIFailure {
            return failure.response
        } catch {
            return APIFailure(.internalServerError, "internal", "\(error)").response
        }
    }

    /// A 200 (or `status`) JSON response.
    func ok<Value: Encodable>(
        _ value: Value, status: HTTPResponseStatus = .ok, headers: HTTPHeaders = [:]
    )
        -> HTTPResponse
    {
        var response = HTTPResponse.json(status, body: APIJSON.encode(value))
        for (name, value) in headers { response.headers.replaceOrAdd(name: name, value: value) }
        return response
    }

    /// Parses an id path parameter.
    func id(_ request: HTTPRequest, _ name: String = "id") throws(APIFailure) -> WorkspaceID {
        guard let text = request.pathParameters[name], let id = WorkspaceID(text) else {
            throw APIFailure(
                .badRequest, APIErrorCode.invalidField, "\"\(request.pathParameters[name] ?? "")\" is not a UUID",
                field: "id")
        }
        return id
    }

    /// Applies a change for a request: applies it only while the workspace is at a state `If-Match` names,
    /// records it in the change journal (when the state keeps one) with the peer that asked (``origin(_:)``, kept
    /// in the history), publishes its `change` event named after `route`, waits for durability when asked, and
    /// answers with the revision and what `returning` reads from the changed workspace.
    ///
    /// The `If-Match` check and the event run under the engine's lock with the change itself, so the check is
    /// exact and events come in revision order.
    func change<Value: Codable & Sendable & Equatable>(
        _ request: HTTPRequest, _ route: APIRoute, status: HTTPResponseStatus = .ok, _ change: WorkspaceChange,
        returning: @escaping (Workspace) -> Value
    ) async throws -> HTTPResponse {
        let options = try ChangeOptions(request)
        let expected = options.ifMatch
        let lineage = state.lineage.rawValue
        let operation = route.changeOperation ?? "change"
        let applied: Applied<Value>
        do {
            applied = try state.apply(
                change, origin: Self.origin(request.peer),
                expecting: expected.map { tags in
                    { revision in
                        let current = WorkspaceETag(lineage: lineage, revision: revision)
                        return tags.contains { $0.matches(current) }
                    }
                },
                returning: returning,
                applied: { self.publishChange($0, operation: operation, request: request) })
        } catch let error as WorkspaceError {
            throw APIFailure(error)
        } catch PersistenceError.revisionMismatch(_, let current) {
            throw Self.mismatch(expected ?? [], current: etag(revision: current))
        } catch let error as PersistenceError {
            throw APIFailure(error)
        } catch {
            throw APIFailure(.internalServerError, "internal", "\(error)")
        }
        var durableRevision: UInt64?
        if options.durable {
            state.saveSoon()
            do {
                try await state.waitUntilDurable(applied.revision)
            } catch {
                throw APIFailure(error)
            }
            durableRevision = state.status.durableRevision
            if let replica, replica.settings.durableAcknowledgement,
                !(await replica.waitUntilReplicated(applied.revision))
            {
                let status = replica.replicator.status
                throw APIFailure(
                    .serviceUnavailable, APIErrorCode.notDurable,
                    "the change was applied and revision \(applied.revision) is durable on this host, but the replica "
                        + "does not hold it yet (replica.durableAcknowledgement): "
                        + (status.lastError ?? status.heldBy.map { "the lease is held by \($0.installation)" }
                            ?? "not shipped"))
            }
        }
        let tag = etag(revision: applied.revision)
        return ok(
            ChangeResponse(
                revision: applied.revision, etag: tag, durableRevision: durableRevision, value: applied.value),
            status: status, headers: ["ETag": tag.quoted])
    }

    /// Who a change came from, as the history keeps it: the connection's peer credentials, `uid 1000 pid 4242`.
    static func origin(_ peer: PeerCredentials) -> String {
        "uid \(peer.uid) pid \(peer.pid)"
    }

    /// The entity tag of `revision` in the state's lineage.
    func etag(revision: UInt64) -> WorkspaceETag {
        WorkspaceETag(lineage: state.lineage.rawValue, revision: revision)
    }

    /// The 412 for an `If-Match` that does not name the current state, with the current tag in its `ETag`.
    static func mismatch(_ expected: [IfMatchTag], current: WorkspaceETag) -> APIFailure {
        let message: String
        switch expected.first {
        case .bareRevision(let revision) where expected.count == 1:
            message =
                "If-Match names revision \(revision) without its lineage, which names no state; the workspace is "
                + "at \(current.quoted): read it again and send its ETag"
        case .tag(let tag) where expected.count == 1 && tag.lineage != current.lineage:
            message =
                "If-Match names \(tag.quoted) of another lineage (the state was restored, quarantined, salvaged, "
                + "imported or may have lost changes in a crash since); the workspace is at \(current.quoted)"
        default:
            message = "the workspace is at \(current.quoted), not the state If-Match names"
        }
        var failure = APIFailure(.preconditionFailed, APIErrorCode.revisionMismatch, message, field: "If-Match")
        failure.headers = ["ETag": current.quoted]
        return failure
    }
}
