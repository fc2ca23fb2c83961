import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `metrics.listen` on the workspaced binary (issue 44): Prometheus scrapes the metrics over TCP, in its text
/// format or in OpenMetrics when it asks; a port already taken is no reason not to start; `metrics.enabled = false`
/// serves none.
@Suite("workspaced's metrics listener")
struct MetricsListenerProcessTests {
    /// A TCP socket listening on 127.0.0.1 at a port the kernel picked; closed by the caller.
    static func listeningSocket() throws -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestSupportError(description: "socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(descriptor, raw, length) == 0 && listen(descriptor, 1) == 0
                    && getsockname(descriptor, raw, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw TestSupportError(description: "bind: errno \(errno)")
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// The status, Content-Type and body of `GET url` through curl, with `accept` as the Accept header.
    static func get(
        _ url: String, accept: String? = nil, in directory: String
    ) async throws -> (
        status: Int, contentType: String, body: String
    ) {
        let body = directory + "/scrape-\(UUID().uuidString).txt"
        var arguments = ["-s", "-o", body, "-w", "%{http_code} %{content_type}"]
        if let accept { arguments += ["-H", "Accept: \(accept)"] }
        let process = try RunningProcess(
            "/usr/bin/curl", arguments + [url], environment: ["PATH": "/usr/bin:/bin"], outputPath: body + ".out")
        #expect(await process.waitForExit() == 0, "\(process.output)")
        let written = process.output.split(separator: " ", maxSplits: 1)
        return (
            Int(written.first ?? "") ?? 0, written.count > 1 ? String(written[1]) : "",
            (try? String(contentsOfFile: body, encoding: .utf8)) ?? ""
        )
    }

    @Test func prometheusScrapesTheTextFormatOrOpenMetricsOverTCP() async throws {
        let (probe, port) = try Self.listeningSocket()
        close(probe)  // The port is free again: the daemon binds it.
        let harness = try TestDaemon()
        try harness.writeConfig(#"{"metrics": {"listen": "127.0.0.1:\#(port)"}}"#)
        let daemon = try harness.start(output: "daemon.log")
        #expect(await harness.becomesReady(), "\(daemon.output)")
        let created = try await curl(
            harness.socketPath, "POST", "/v1/favorites", body: #"{"name":"one","path":"/one"}"#)
        #expect(created.status == 201)
        let url = "http://127.0.0.1:\(port)/metrics"

        let text = try await Self.get(url, in: harness.root)
        #expect(text.status == 200 && text.contentType == "text/plain; version=0.0.4; charset=utf-8", "\(text)")
        #expect(text.body.contains(#"workspaced_changes_total{operation="favorite.create"} 1"#), "\(text.body)")
        #expect(!text.body.contains("# EOF"))
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/promtool") {
            let path = harness.root + "/listener.txt"
            try text.body.write(toFile: path, atomically: true, encoding: .utf8)
            let check = try RunningProcess(
                "/bin/sh", ["-c", "/usr/bin/promtool check metrics < \(path)"], environment: ["PATH": "/usr/bin:/bin"],
                outputPath: harness.root + "/promtool.log")
            #expect(await check.waitForExit() == 0, "\(check.output)")
        }

        // Prometheus's own Accept header gets OpenMetrics.
        let open = try await Self.get(
            url,
            accept: "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5,*/*;q=0.1",
            in: harness.root)
        #expect(open.status == 200 && open.contentType.hasPrefix("application/openmetrics-text; version=1.0.0"))
        #expect(open.body.hasSuffix("# EOF\n"), "\(open.body.suffix(200))")
        let lines = Set(open.body.split(separator: "\n").map(String.init))
        #expect(lines.contains("# TYPE workspaced_changes counter"), "\(open.body)")
        #expect(lines.contains(#"workspaced_changes_total{operation="favorite.create"} 1"#), "\(open.body)")

        // The listener serves the metrics and nothing else.
        let other = try await Self.get("http://127.0.0.1:\(port)/v1/workspace", in: harness.root)
        #expect(other.status == 404, "\(other)")
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit() == 0)
    }

    @Test func aPortAlreadyTakenIsAWarningAndTheDaemonServesWithoutIt() async throws {
        let (taken, port) = try Self.listeningSocket()
        defer { close(taken) }
        let harness = try TestDaemon()
        try harness.writeConfig(#"{"metrics": {"listen": "127.0.0.1:\#(port)"}}"#)
        let daemon = try harness.start(output: "daemon.log")
        #expect(await harness.becomesReady(), "\(daemon.output)")
        #expect(daemon.output.contains("message-id=4bed4724c374494fbad5ebcbdddb97cf"), "\(daemon.output)")
        #expect(daemon.output.contains("127.0.0.1:\(port) (metrics.listen)"), "\(daemon.output)")
        let metrics = try await curl(harness.socketPath, "GET", "/v1/metrics")
        #expect(metrics.status == 200)
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit() == 0)
    }

    @Test func metricsOffServeNoneAndARemoteAddressNeedsAllowRemote() async throws {
        let harness = try TestDaemon()
        try harness.writeConfig(#"{"metrics": {"enabled": false}}"#)
        let daemon = try harness.start(output: "daemon.log")
        #expect(await harness.becomesReady(), "\(daemon.output)")
        let metrics = try await curl(harness.socketPath, "GET", "/v1/metrics")
        #expect(metrics.status == 404 && metrics.body.contains("metrics_off"), "\(metrics)")
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit() == 0)

        let refused = try TestDaemon()
        try refused.writeConfig(#"{"metrics": {"listen": "0.0.0.0:9464"}}"#)
        let process = try refused.start(output: "refused.log")
        #expect(await process.waitForExit() == 78, "\(process.output)")
        #expect(process.output.contains("metrics.listen") && process.output.contains("metrics.allowRemote"))
    }
}
