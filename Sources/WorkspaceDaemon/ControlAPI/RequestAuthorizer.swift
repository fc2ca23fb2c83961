import FoundationEssentials
import Logging
import NIOHTTP1
import UnixHTTP
import WorkspaceAPI
import WorkspaceSecrets

/// Decides, before routing, whether a request may go on: by its bearer token when it presents one, otherwise by
/// its peer's credentials (``AccessPolicy``).
///
/// A valid token grants its scope, whoever the peer is: `read` allows GET and HEAD, `write` everything. A token
/// that is not valid (wrong, unknown, revoked, malformed), or any token while token authentication is disabled,
/// is refused with 401 and one warning naming the token's id (``DaemonEvent/tokenRefused``), never its secret.
package struct RequestAuthorizer: Sendable {
    /// The peer-credential rules for requests without a token.
    package let policy: AccessPolicy
    /// The secret store that checks tokens, or why there is none.
    package let secrets: SecretStoreOpening
    let logger: Logger

    /// An authorizer with `policy` for peers and `secrets` for tokens, logging refusals to `logger`.
    package init(policy: AccessPolicy, secrets: SecretStoreOpening, logger: Logger) {
        self.policy = policy
        self.secrets = secrets
        self.logger = logger
    }

    /// `nil` to let `request` through, or the refusal to send (401 or 403 with the JSON error body).
    package func authorize(_ request: HTTPRequest) -> HTTPResponse? {
        let isRead = request.method == .GET || request.method == .HEAD
        let authorization = request.headers[canonicalForm: "authorization"]
        guard !authorization.isEmpty else { return authorizePeer(request, isRead: isRead) }
        guard authorization.count == 1, let presented = Self.bearerToken(String(authorization[0])) else {
            return refuseToken(
                request, id: nil, reason: "malformed",
                message: "the Authorization header must be one `Bearer <token>`")
        }
        guard let store = secrets.store else {
            return refuseToken(
                request, id: BearerToken.parse(presented).id, reason: "disabled",
                message: "token authentication is disabled: \(secrets.unavailable?.message ?? "no secret store")")
        }
        let outcome = store.authenticate(presented)
        guard case .granted(let id, let scope) = outcome else {
            return refuseToken(request, id: outcome.tokenID, reason: Self.reason(outcome), message: outcome.description)
        }
        let grant: AccessPolicy.Grant = scope == .write ? .write : scope == .read ? .read : .none
        if grant.allows(isRead: isRead) { return nil }
        let what =
            scope == .read
            ? "a read token may not change the workspace" : "scope \"\(scope.rawValue)\" is unknown to this release"
        logger.warning(
            "refused \(request.method) \(request.path) with token \(id): \(what)",
            metadata: ["token_id": "\(id)", "peer_uid": "\(request.peer.uid)", "peer_pid": "\(request.peer.pid)"])
        return APIFailure(.forbidden, APIErrorCode.forbidden, "token \(id): \(what)").response
    }

    /// The peer-credential decision (requests without a token).
    func authorizePeer(_ request: HTTPRequest, isRead: Bool) -> HTTPResponse? {
        let grant = policy.grant(for: request.peer)
        if grant.allows(isRead: isRead) { return nil }
        logger.warning(
            "refused \(request.method) \(request.path) from uid \(request.peer.uid) (pid \(request.peer.pid))",
            metadata: ["peer_uid": "\(request.peer.uid)", "peer_pid": "\(request.peer.pid)"])
        let what = grant == .read ? "change" : "read"
        return APIFailure(
            .forbidden, APIErrorCode.forbidden, "uid \(request.peer.uid) may not \(what) the workspace"
        ).response
    }

    /// 401 with `WWW-Authenticate` and one warning naming the token's id.
    private func refuseToken(_ request: HTTPRequest, id: String?, reason: String, message: String) -> HTTPResponse {
        logger.warning(
            "refused \(request.method) \(request.path) from uid \(request.peer.uid) (pid \(request.peer.pid)): \(message)",
            metadata: DaemonEvent.tokenRefused.metadata([
                "token_id": "\(id ?? "none")", "reason": "\(reason)", "peer_uid": "\(request.peer.uid)",
                "peer_pid": "\(request.peer.pid)",
            ]))
        var response = APIFailure(.unauthorized, APIErrorCode.unauthorized, message).response
        response.headers.replaceOrAdd(
            name: "WWW-Authenticate", value: #"Bearer realm="workspaced", error="invalid_token""#)
        return response
    }

    /// The token in `Bearer <token>` (scheme in any case), or `nil`.
    static func bearerToken(_ header: String) -> String? {
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingBlanks()
        return token.isEmpty ? nil : token
    }

    /// The journal's `REASON` for a refusal.
    static func reason(_ outcome: TokenAuthentication) -> String {
        switch outcome {
        case .granted: return "granted"
        case .unknown: return "unknown"
        case .wrongSecret: return "wrong_secret"
        case .revoked: return "revoked"
        case .malformed: return "malformed"
        }
    }
}
