import Logging
import NIOHTTP1
import UnixHTTP

extension Daemon {
    /// Serves `GET /metrics` on `metrics.listen` over TCP for Prometheus, which cannot scrape a Unix socket; `nil`
    /// when no address is configured, metrics are off, or the address cannot be bound. A port already taken is no
    /// reason to stop serving the workspace: it is said at warning (``DaemonEvent/metricsListenFailed``) and the
    /// daemon goes on without the listener.
    ///
    /// Anyone who reaches the port reads the metrics (they hold counts and sizes, never the workspace's content):
    /// the listener serves nothing else, and a non-loopback address needs `metrics.allowRemote` (checked at load).
    func startMetricsListener(exposition: @escaping @Sendable (MetricsFormat) -> [UInt8]) async -> HTTPServer? {
        guard configuration.metricsEnabled, let address = configuration.metricsListen else { return nil }
        var router = HTTPRouter()
        do {
            try router.register(.GET, "/metrics") { request in
                let format = MetricsFormat(accept: request.headers.first(name: "accept"))
                var response = HTTPResponse(status: .ok, body: exposition(format))
                response.headers.replaceOrAdd(name: "Content-Type", value: format.contentType)
                return response
            }
        } catch {
            preconditionFailure("the metrics route is malformed: \(error)")
        }
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(
                socketPath: "", maximumBodySize: 0, maximumConnections: 64, requestTimeout: .seconds(10)),
            router: router, logger: logger)
        do {
            try await server.start(binding: .tcp(host: address.host, port: address.port))
        } catch {
            logger.warning(
                "cannot serve the metrics on \(address) (metrics.listen): \(error); serving without the listener",
                metadata: DaemonEvent.metricsListenFailed.metadata([
                    "metrics_listen": "\(address)", "error": "\(error)",
                ]))
            return nil
        }
        logger.info("metrics on http://\(address)/metrics")
        return server
    }
}
