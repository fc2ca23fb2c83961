import Foundation
import Synchronization
import WorkspaceClient
import WorkspaceModel

/// Metrics and the scrub (issue 44), on release daemons, the ratios measured in one run:
///
/// - **metrics on ÷ off**: two daemons holding the same workspace, one with `metrics.enabled = false`, in
///   interleaved rounds: a durable change (a rename answered once on disk), the control API's changes per second
///   (16 clients adding favorites) and a save of everything (`POST /v1/flush` after a rename, which writes the
///   whole state file); goals ≤ 1.03, ≥ 0.97 and ≤ 1.03;
/// - **the scrub's cost**: a daemon holding a bigger workspace with three manual backups and a history filled to
///   its bound; the p99 latency of 16 clients renaming projects while scrubs run back to back, against the same
///   load without one, in interleaved rounds; goal ≤ 1.2.
struct MetricsBenchmark {
    struct Result: Codable {
        var durableOffSeconds: Double
        var durableOnSeconds: Double
        /// `durableOnSeconds / durableOffSeconds`; the goal is at most 1.03.
        var durableRatio: Double
        var durableGoal = 1.03
        var controlOffPerSecond: Double
        var controlOnPerSecond: Double
        /// `controlOnPerSecond / controlOffPerSecond`; the goal is at least 0.97.
        var controlRatio: Double
        var controlGoal = 0.97
        var saveOffSeconds: Double
        var saveOnSeconds: Double
        /// `saveOnSeconds / saveOffSeconds`; the goal is at most 1.03.
        var saveRatio: Double
        var saveGoal = 1.03
        var metricsStateBytes: Int
        var scrubStateBytes: Int
        var scrubBackups: Int
        var scrubHistoryBytes: Int
        var scrubsDuringLoad: Int
        var p99WithoutScrubSeconds: Double
        var p99DuringScrubSeconds: Double
        /// `p99DuringScrubSeconds / p99WithoutScrubSeconds`; the goal is at most 1.2.
        var scrubP99Ratio: Double
        var scrubGoal = 1.2
    }

    let daemon: String
    let directory: String
    let rounds: Int
    let megabytes: Int
    let scrubMegabytes: Int
    let historyMebibytes: Int

    /// The benchmark from `--daemon` (required), `--megabytes` (10), `--scrub-megabytes` (50),
    /// `--history-mebibytes` (64), `--rounds` and `--directory`.
    static func fromCommandLine(rounds: Int) throws -> MetricsBenchmark {
        guard let daemon = option("daemon") else { throw BenchError("metrics needs --daemon PATH (a release build)") }
        return MetricsBenchmark(
            daemon: daemon,
            directory: (option("directory") ?? FileManager.default.temporaryDirectory.path) + "/metrics-bench",
            rounds: rounds, megabytes: option("megabytes").flatMap(Int.init) ?? 10,
            scrubMegabytes: option("scrub-megabytes").flatMap(Int.init) ?? 50,
            historyMebibytes: option("history-mebibytes").flatMap(Int.init) ?? 64)
    }

    func run() throws -> Result {
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let file = try WorkspaceGenerator.make(bytes: megabytes * 1_000_000).v4
        // `--part scrub` measures the scrub alone (its rows only), `--part metrics` the rest.
        let part = option("part")
        let onOff =
            part == "scrub"
            ? (
                durable: (off: Double.nan, on: Double.nan), control: (off: Double.nan, on: Double.nan),
                save: (off: Double.nan, on: Double.nan)
            )
            : try blocking { try await self.metricsOnOff(file) }
        for (name, off, on, goal) in [
            ("durable change (ms)", onOff.durable.off * 1e3, onOff.durable.on * 1e3, "≤ 1.03"),
            ("control API (changes/s)", onOff.control.off, onOff.control.on, "≥ 0.97"),
            ("save everything (ms)", onOff.save.off * 1e3, onOff.save.on * 1e3, "≤ 1.03"),
        ] {
            print(String(format: "metrics %@: %.3f off, %.3f on, ratio %.3f (goal %@)", name, off, on, on / off, goal))
        }
        let scrub =
            part == "metrics"
            ? (stateBytes: 0, backups: 0, historyBytes: 0, scrubs: 0, without: Double.nan, during: Double.nan)
            : try blocking { try await self.scrubCost() }
        print(
            String(
                format:
                    "scrub of %.0f MB + %d backups + %.0f MiB history: p99 %.2f ms without, %.2f ms during %d scrub(s), ratio %.3f (goal ≤ 1.2)",
                Double(scrub.stateBytes) / 1e6, scrub.backups, Double(scrub.historyBytes) / 1_048_576,
                scrub.without * 1e3, scrub.during * 1e3, scrub.scrubs, scrub.during / scrub.without))
        return Result(
            durableOffSeconds: onOff.durable.off, durableOnSeconds: onOff.durable.on,
            durableRatio: onOff.durable.on / onOff.durable.off, controlOffPerSecond: onOff.control.off,
            controlOnPerSecond: onOff.control.on, controlRatio: onOff.control.on / onOff.control.off,
            saveOffSeconds: onOff.save.off, saveOnSeconds: onOff.save.on, saveRatio: onOff.save.on / onOff.save.off,
            metricsStateBytes: file.count, scrubStateBytes: scrub.stateBytes, scrubBackups: scrub.backups,
            scrubHistoryBytes: scrub.historyBytes, scrubsDuringLoad: scrub.scrubs,
            p99WithoutScrubSeconds: scrub.without, p99DuringScrubSeconds: scrub.during,
            scrubP99Ratio: scrub.during / scrub.without)
    }

    typealias OffOn = (off: Double, on: Double)

    /// The three measures on two daemons, metrics off and on, in interleaved rounds; medians.
    private func metricsOnOff(_ file: Data) async throws -> (durable: OffOn, control: OffOn, save: OffOn) {
        let save = #""save": {"debounceMilliseconds": 500, "maximumDelayMilliseconds": 5000}"#
        let off = try DaemonProcess(
            daemon: daemon, directory: directory + "/off", file: file,
            configuration: #"{\#(save), "metrics": {"enabled": false}}"#)
        let on = try DaemonProcess(daemon: daemon, directory: directory + "/on", file: file, configuration: "{\(save)}")
        defer {
            _ = try? off.terminate()
            _ = try? on.terminate()
        }
        var durable: [String: [Double]] = [:]
        var control: [String: [Double]] = [:]
        var saves: [String: [Double]] = [:]
        for round in 1...max(1, rounds) {
            for (name, running) in [("off", off), ("on", on)] {
                let client = WorkspaceClient(socketPath: running.socketPath, timeout: .seconds(60))
                let ids = try await client.projects().prefix(100).map(\.id)
                for index in 0..<200 {
                    let started = ContinuousClock.now
                    _ = try await client.renameProject(
                        id: ids[index % ids.count], name: "durable \(round) \(index)", durable: true)
                    durable[name, default: []].append((ContinuousClock.now - started).seconds)
                }
                let phase = try await PhaseMeasurement.measure(
                    "round \(round) metrics \(name): add favorite", clients: 16, requests: 2000
                ) { worker, index in
                    _ = try await client.addFavorite(
                        name: "bench-\(round)-\(worker)-\(index)", path: "/bench/\(round)/\(worker)/\(index)")
                }
                control[name, default: []].append(phase.perSecond)
                for index in 0..<10 {
                    _ = try await client.renameProject(id: ids[index], name: "saved \(round) \(index)")
                    let started = ContinuousClock.now
                    _ = try await client.flush()
                    saves[name, default: []].append((ContinuousClock.now - started).seconds)
                }
            }
        }
        func pair(_ samples: [String: [Double]]) -> OffOn {
            (median(samples["off"] ?? []), median(samples["on"] ?? []))
        }
        return (pair(durable), pair(control), pair(saves))
    }

    /// p99 of 16 clients renaming projects with scrubs running back to back and without, interleaved; medians.
    private func scrubCost() async throws -> (
        stateBytes: Int, backups: Int, historyBytes: Int, scrubs: Int, without: Double, during: Double
    ) {
        let file = try WorkspaceGenerator.make(bytes: scrubMegabytes * 1_000_000).v4
        let base = directory + "/scrub"
        try FileManager.default.createDirectory(atPath: base + "/state", withIntermediateDirectories: true)
        let maximum = historyMebibytes << 20
        let running = try DaemonProcess(
            daemon: daemon, directory: base, file: file,
            configuration: #"{"scrub": {"intervalHours": 0}, "history": {"maximumBytes": \#(maximum)}}"#
        ) { state in
            // Three manual backups beside the state file, as `workspaced backup` names them (copies, not links).
            for index in 1...3 {
                try file.write(to: URL(fileURLWithPath: state + "/workspace.json.manual-2026010\(index)T000000Z.bak"))
            }
        }
        defer { _ = try? running.terminate() }
        let client = WorkspaceClient(socketPath: running.socketPath, timeout: .seconds(600))
        let ids = try await client.projects().prefix(200).map(\.id)
        // Fill the history towards its bound with renames of about 300 bytes each (names hold at most 256).
        let padding = String(repeating: "x", count: 240)
        var historyBytes = try await client.status().history?.bytes ?? 0
        var filled = 0
        while historyBytes < maximum - (4 << 20), filled < 400_000 {
            _ = try await PhaseMeasurement.measure("history fill", clients: 16, requests: 4000) {
                worker, index in
                _ = try await client.renameProject(
                    id: ids[(worker * 251 + index) % ids.count], name: "\(index) \(padding)")
            }
            filled += 4000
            _ = try await client.flush()
            historyBytes = try await client.status().history?.bytes ?? 0
        }
        print("scrub bench: history at \(historyBytes) bytes after \(filled) renames")
        var without: [Double] = []
        var during: [Double] = []
        var scrubs = 0
        for round in 1...max(1, rounds) {
            let quiet = try await PhaseMeasurement.measure(
                "round \(round) without a scrub: rename", clients: 16, requests: 4000
            ) { worker, index in
                _ = try await client.renameProject(id: ids[(worker + index) % ids.count], name: "q \(round) \(index)")
            }
            without.append(quiet.p99)
            let stop = Atomic<Bool>(false)
            let scrubber = Task {
                var count = 0
                while !stop.load(ordering: .relaxed) {
                    _ = try await client.scrub()
                    count += 1
                }
                return count
            }
            // Let the first scrub begin before the load does.
            try await Task.sleep(for: .milliseconds(100))
            let loaded = try await PhaseMeasurement.measure(
                "round \(round) during scrubs: rename", clients: 16, requests: 4000
            ) { worker, index in
                _ = try await client.renameProject(id: ids[(worker + index) % ids.count], name: "s \(round) \(index)")
            }
            let status = try await client.status()
            stop.store(true, ordering: .relaxed)
            scrubs += try await scrubber.value
            guard status.scrub?.running == true || scrubs > 0 else { throw BenchError("no scrub ran during the load") }
            during.append(loaded.p99)
        }
        return (file.count, 3, historyBytes, scrubs, median(without), median(during))
    }
}
