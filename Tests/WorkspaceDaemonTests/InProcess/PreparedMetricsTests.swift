import Glibc
import StateStore
import Testing
import WorkspaceDaemon

/// The metrics registry `workspaced run` makes beside its configuration's read is the one the daemon serves.
@Suite("Prepared metrics, in process")
struct PreparedMetricsTests {
    @Test func theDaemonServesThePreparedRegistry() async throws {
        let prepared = BackgroundValue { DaemonMetrics(version: "9.9.9-prepared", schemaVersion: 4) }
        let world = try await InProcessDaemon(preparedMetrics: prepared)
        let running = try await world.daemon.start()
        let response = await world.request(running, .GET, "/v1/metrics")
        let text = String(decoding: response.body, as: UTF8.self)
        #expect(response.status == .ok)
        #expect(text.contains(#"version="9.9.9-prepared""#), "\(text.prefix(400))")
        // The state's figures went to the same registry.
        #expect(text.contains("workspaced_load_duration_seconds"), "\(text.prefix(400))")
        #expect(running.stop(signal: SIGTERM) == .success)
    }
}
