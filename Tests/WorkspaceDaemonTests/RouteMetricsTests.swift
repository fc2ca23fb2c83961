import Testing
import WorkspaceAPI
import WorkspaceDaemon

/// The control API's request figures by route: made once per route, whether prepared beside the load or asked
/// for when the route is registered.
@Suite("route metrics")
struct RouteMetricsTests {
    @Test func preparedRoutesAreTheOnesTheRouterGets() {
        let metrics = DaemonMetrics(version: "0.0.0", schemaVersion: 4)
        let routes = APIRoute.all.map(\.description)
        metrics.prepareRoutes(routes)
        metrics.prepareRoutes(routes)
        let text = String(decoding: metrics.exposition(), as: UTF8.self)
        for route in routes {
            // Each route's histogram is in the exposition once, before any request.
            let count =
                text.components(
                    separatedBy: #"workspaced_http_request_duration_seconds_count{route="\#(route)"}"#
                ).count - 1
            #expect(count == 1, "\(route)")
            #expect(metrics.route(route) === metrics.route(route))
        }
    }

    @Test func aRouteAskedForFirstIsMadeOnceAndCounts() {
        let metrics = DaemonMetrics(version: "0.0.0", schemaVersion: 4)
        let first = metrics.route("GET /v1/x")
        metrics.prepareRoutes(["GET /v1/x"])
        #expect(metrics.route("GET /v1/x") === first)
        first.served(status: 200, duration: .milliseconds(2))
        let text = String(decoding: metrics.exposition(), as: UTF8.self)
        #expect(text.contains(#"workspaced_http_requests_total{route="GET /v1/x",status="200"} 1"#))
        #expect(text.contains(#"workspaced_http_request_duration_seconds_count{route="GET /v1/x"} 1"#))
    }
}
