import FoundationEssentials
import Glibc
import Logging
import NIOHTTP1
import StateStore
import Systemd
import UnixHTTP
import WorkspaceAPI
import WorkspaceModel
import WorkspaceSecrets

extension Daemon {
    /// Begins listening for the control API beside the load: on the socket systemd passed (socket activation),
    /// else on the configured path. Nothing is accepted until ``PendingControlServer/serve(router:authorize:)``.
    func beginListening() throws(DaemonStartError) -> PendingControlServer {
        let configuration = self.configuration
        let binding: HTTPServerBinding
        do {
            // The `LISTEN_*` variables stay: by now other threads run (the secret store's opening, the event
            // loops), and glibc's unsetenv shifts `environ` under a concurrent reader, which can then miss a
            // variable that is there. The daemon starts no process that could inherit them.
            let inherited = try SocketActivation.listeningUnixSockets(unsetEnvironment: false)
            if let socket = inherited.first(where: { $0.name == "control" }) ?? inherited.first {
                binding = .inheritedDescriptor(socket.fileDescriptor)
                logger.info("control API on the socket passed by systemd (\(socket.name), fd \(socket.fileDescriptor))")
            } else {
                let directory = PathText.deletingLastComponent(of: configuration.controlSocketPath)
                try? FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
                binding = .path(configuration.controlSocketPath)
            }
        } catch {
            throw .controlSocket("\(error)")
        }
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(
                socketPath: configuration.controlSocketPath, maximumBodySize: configuration.apiMaximumBodyBytes,
                maximumConnections: connectionCap(configuration.apiMaximumConnections),
                requestTimeout: configuration.apiRequestTimeout),
            logger: logger)
        return PendingControlServer(server: server, binding: binding)
    }

    /// Decides each request before routing (``RequestAuthorizer``): by its bearer token when it presents one,
    /// checked against `secrets`; otherwise by the access policy of the configuration in force (reads: GET/HEAD;
    /// everything else is a change). Refusals are logged with the uid (and the token's id, never its secret).
    func authorizer(_ secrets: SecretStoreOpening) -> HTTPServer.Authorizer {
        { [self] request in
            RequestAuthorizer(policy: AccessPolicy(access: configuration.access), secrets: secrets, logger: logger)
                .authorize(request)
        }
    }

    /// `configured`, or the open-file limit less 64 (for the state file, the journal and the rest) when that is
    /// lower: past the limit `accept` fails with EMFILE instead of the clear 503. Said at notice when it lowers it.
    func connectionCap(_ configured: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else {
            return configured
        }
        let allowed = max(16, Int(clamping: limit.rlim_cur) - 64)
        guard allowed < configured else { return configured }
        let key = ConfigurationKey.apiMaximumConnections.name
        logger.notice(
            "\(key) \(configured) is above the open-file limit (\(limit.rlim_cur)) less 64; serving at most \(allowed)")
        return allowed
    }
}
