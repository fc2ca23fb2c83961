import Foundation
import Logging
import NIOHTTP1
import Systemd
import UnixHTTP
import WorkspaceClient
import WorkspaceModel
import WorkspaceSecrets

extension Daemon {
    /// Serves the control API: on the socket systemd passed (socket activation), else on the configured path.
    func startControlServer(_ api: ControlAPI) async throws(DaemonStartError) -> HTTPServer {
        let configuration = self.configuration
        let binding: HTTPServerBinding
        do {
            let inherited = try SocketActivation.listeningUnixSockets(unsetEnvironment: true)
            if let socket = inherited.first(where: { $0.name == "control" }) ?? inherited.first {
                binding = .inheritedDescriptor(socket.fileDescriptor)
                logger.info("control API on the socket passed by systemd (\(socket.name), fd \(socket.fileDescriptor))")
            } else {
                let directory = (configuration.controlSocketPath as NSString).deletingLastPathComponent
                try? FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
                binding = .path(configuration.controlSocketPath)
            }
        } catch {
            throw .controlSocket("\(error)")
        }
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(
                socketPath: configuration.controlSocketPath, maximumBodySize: configuration.apiMaximumBodyBytes),
            router: api.router(), authorize: authorizer(api.secrets), logger: logger)
        do {
            try await server.start(binding: binding)
        } catch {
            throw .controlSocket("\(error)")
        }
        return server
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
}
