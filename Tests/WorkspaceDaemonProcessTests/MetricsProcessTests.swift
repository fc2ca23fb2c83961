import Foundation
import TestSupport
import Testing
import WorkspaceModel

#if canImport(Glibc)
import Glibc
#endif

/// `GET /v1/metrics` on the workspaced binary (issue 44): Prometheus's text format, the figures of what happened,
/// and `promtool check metrics` (Debian's `prometheus` package, which `make deps` installs) finding nothing wrong.
@Suite("workspaced's metrics")
struct MetricsProcessTests {
    /// The repository's root.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The body and Content-Type of `GET path`, through curl on the control socket.
    static func scrape(_ socket: String, in directory: String) async throws -> (contentType: String, body: String) {
        let body = directory + "/metrics-\(UUID().uuidString).txt"
        let process = try RunningProcess(
            "/usr/bin/curl",
            ["-s", "-o", body, "-w", "%{content_type}", "--unix-socket", socket, "http://localhost/v1/metrics"],
            environment: ["PATH": "/usr/bin:/bin"], outputPath: body + ".out")
        #expect(await process.waitForExit() == 0)
        return (process.output, (try? String(contentsOfFile: body, encoding: .utf8)) ?? "")
    }

    @Test func theFiguresOfWhatHappenedInPrometheusFormat() async throws {
        let harness = try TestDaemon()
        try harness.writeConfig(#"{"save": {"debounceMilliseconds": 0, "maximumDelayMilliseconds": 1}}"#)
        let daemon = try harness.start(output: "daemon.log")
        #expect(await harness.becomesReady(), "\(daemon.output)")
        for name in ["one", "two"] {
            let created = try await curl(
                harness.socketPath, "POST", "/v1/favorites", body: #"{"name":"\#(name)","path":"/\#(name)"}"#)
            #expect(created.status == 201)
        }
        let flushed = try await curl(harness.socketPath, "POST", "/v1/flush")
        #expect(flushed.status == 200)
        let (contentType, body) = try await Self.scrape(harness.socketPath, in: harness.root)
        #expect(contentType == "text/plain; version=0.0.4; charset=utf-8")
        let lines = Set(body.split(separator: "\n").map(String.init))
        #expect(lines.contains(#"workspaced_changes_total{operation="favorite.create"} 2"#), "\(body)")
        let requests = #"workspaced_http_requests_total{route="POST /v1/favorites",status="201"} 2"#
        #expect(lines.contains(requests), "\(body)")
        #expect(lines.contains("workspaced_revision 2.0"), "\(body)")
        let build = lines.first { $0.hasPrefix("workspaced_build_info{") }
        #expect(build?.hasSuffix(#"schema="4"} 1.0"#) == true, "\(body)")
        let saves = lines.first { $0.hasPrefix("workspaced_saves_total ") }.flatMap { Int($0.split(separator: " ")[1]) }
        #expect((saves ?? 0) >= 1, "\(body)")
        #expect(lines.contains { $0.hasPrefix("workspaced_save_duration_seconds_count ") }, "\(body)")
        #expect(lines.contains { $0.hasPrefix("workspaced_process_resident_memory_bytes ") }, "\(body)")
        #expect(lines.contains("# TYPE workspaced_changes_total counter"), "\(body)")
        #expect(lines.contains(#"workspaced_load_info{source="none"} 1.0"#), "\(body)")
        #expect(lines.contains { $0.hasPrefix("workspaced_history_bytes ") }, "history is on by default: \(body)")
        #expect(lines.contains("workspaced_event_subscribers 0.0"), "\(body)")
        #expect(lines.contains("workspaced_events_dropped_total 0"), "\(body)")
        #expect(lines.contains("workspaced_applied_changes_total 2"), "\(body)")
        #expect(lines.contains("workspaced_journal_appends_total 2"), "\(body)")

        // promtool reads the exposition on its standard input and lints it.
        let promtool = "/usr/bin/promtool"
        if FileManager.default.isExecutableFile(atPath: promtool) {
            let path = harness.root + "/scraped.txt"
            try body.write(toFile: path, atomically: true, encoding: .utf8)
            let check = try RunningProcess(
                "/bin/sh", ["-c", "\(promtool) check metrics < \(path)"], environment: ["PATH": "/usr/bin:/bin"],
                outputPath: harness.root + "/promtool.log")
            #expect(await check.waitForExit() == 0, "\(check.output)\n\(body)")
            // The shipped alerting rules load, and every figure they read is one the daemon serves.
            let rules = Self.root + "/packaging/prometheus/workspaced-rules.yml"
            let checkRules = try RunningProcess(
                promtool, ["check", "rules", rules], environment: ["PATH": "/usr/bin:/bin"],
                outputPath: harness.root + "/promtool-rules.log")
            #expect(await checkRules.waitForExit() == 0, "\(checkRules.output)")
        } else {
            #expect(ProcessInfo.processInfo.environment["CI"] != "true", "make deps installs promtool (prometheus)")
        }
        let rules = try String(
            contentsOfFile: Self.root + "/packaging/prometheus/workspaced-rules.yml", encoding: .utf8)
        let served = Set(lines.filter { $0.hasPrefix("# TYPE ") }.map { String($0.split(separator: " ")[2]) })
        let read = Set(rules.matches(of: /workspaced_[a-z_]+/).map { String($0.output) })
        #expect(!read.isEmpty && read.isSubset(of: served), "not served: \(read.subtracting(served))")
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit() == 0)
    }

    /// A migrated start and a replica: the load's source and the replica's lag are figures too.
    @Test func theLoadsSourceAndTheReplicasLag() async throws {
        let harness = try TestDaemon()
        try harness.writeState(try WorkspaceFixtures.data("versions/v1.json"))
        let credentials = try ReplicaProcessTests.credentials(harness)
        try harness.writeConfig(
            """
            {"replica": {"url": "file://\(harness.root)/replica", "syncIntervalMilliseconds": 100}}
            """)
        let daemon = try harness.start(environment: ["CREDENTIALS_DIRECTORY": credentials], output: "daemon.log")
        #expect(await harness.becomesReady(), "\(daemon.output)")
        let created = try await curl(
            harness.socketPath, "POST", "/v1/favorites", body: #"{"name":"one","path":"/one"}"#)
        #expect(created.status == 201)
        #expect(await ReplicaProcessTests.caughtUp(harness), "\(daemon.output)")
        let (_, body) = try await Self.scrape(harness.socketPath, in: harness.root)
        let lines = Set(body.split(separator: "\n").map(String.init))
        #expect(lines.contains(#"workspaced_load_info{source="migrated"} 1.0"#), "\(body)")
        #expect(lines.contains("workspaced_load_migration_steps 3.0"), "\(body)")
        #expect(lines.contains("workspaced_replica_lag_revisions 0.0"), "\(body)")
        #expect(lines.contains("workspaced_replica_consecutive_failures 0.0"), "\(body)")
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit() == 0)
    }

    /// `metrics.textfile` for node_exporter: written every interval and at the stop; a missing directory is warned
    /// about once (with its MESSAGE_ID) and retried until it exists; a relative path refuses the start with 78.
    @Test func theTextfileIsWrittenAndAMissingDirectoryIsRetried() async throws {
        let harness = try TestDaemon()
        let directory = harness.root + "/textfile"
        let path = directory + "/workspaced.prom"
        try harness.writeConfig(
            #"{"metrics": {"textfile": "\#(path)", "textfileIntervalSeconds": 1}}"#)
        let daemon = try harness.start(output: "daemon.log")
        #expect(await harness.becomesReady(), "\(daemon.output)")
        let event = "4558f319b68441a4b2077a8523173c08"
        #expect(await eventually { daemon.output.contains("message-id=\(event)") }, "\(daemon.output)")
        // Time under test: two more 1 s intervals, in which the warning must not come again.
        try await Task.sleep(for: .milliseconds(2500))
        let warnings = daemon.output.components(separatedBy: "message-id=\(event)").count - 1
        #expect(warnings == 1, "warned once: \(daemon.output)")
        let created = try await curl(
            harness.socketPath, "POST", "/v1/favorites", body: #"{"name":"one","path":"/one"}"#)
        #expect(created.status == 201)

        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let written = await eventually {
            ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
                .contains(#"workspaced_changes_total{operation="favorite.create"} 1"#)
        }
        #expect(written, "\(daemon.output)")
        #expect(await eventually { daemon.output.contains("writing the metrics to \(path) again") })
        let created2 = try await curl(
            harness.socketPath, "POST", "/v1/favorites", body: #"{"name":"two","path":"/two"}"#)
        #expect(created2.status == 201)
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit() == 0)
        // The stop's own write: the second change is in the file, whatever the interval.
        let final = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        #expect(final.contains(#"workspaced_changes_total{operation="favorite.create"} 2"#), "\(final)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["workspaced.prom"])
        // promtool reads the textfile as node_exporter would serve it.
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/promtool") {
            let check = try RunningProcess(
                "/bin/sh", ["-c", "/usr/bin/promtool check metrics < \(path)"], environment: ["PATH": "/usr/bin:/bin"],
                outputPath: harness.root + "/promtool-textfile.log")
            #expect(await check.waitForExit() == 0, "\(check.output)")
        }

        let refused = try TestDaemon()
        try refused.writeConfig(#"{"metrics": {"textfile": "relative/workspaced.prom"}}"#)
        let process = try refused.start(output: "refused.log")
        #expect(await process.waitForExit() == 78, "\(process.output)")
        #expect(process.output.contains("metrics.textfile"), "\(process.output)")
    }
}
