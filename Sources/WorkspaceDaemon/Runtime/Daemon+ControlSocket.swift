import Foundation
import Logging
import NIOHTTP1
import Systemd
import UnixHTTP
import WorkspaceClient
import WorkspaceModel

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
            router: api.router(), authorize: authorizer(), logger: logger)
        do {
            try await server.start(binding: binding)
        } catch {
            throw .controlSocket("\(error)")
        }
        return server
    }

    /// Refuses peers the access policy does not allow (reads: GET/HEAD; everything else is a change), logging
    /// the uid.
    func authorizer() -> HTTPServer.Authorizer {
        { [self] request in
            let grant = AccessPolicy(access: configuration.access).grant(for: request.peer)
            let isRead = request.method == .GET || request.method == .HEAD
            if grant == .write || (grant == .read && isRead) { return nil }
            logger.warning(
                "refused \(request.method) \(request.path) from uid \(request.peer.uid) (pid \(request.peer.pid))",
                metadata: ["peer_uid": "\(request.peer.uid)", "peer_pid": "\(request.peer.pid)"])
            let what = grant == .read ? "change" : "read"
            return APIFailure(
                .forbidden, APIErrorCode.forbidden, "uid \(request.peer.uid) may not \(what) the workspace"
            ).response
        }
    }
}
