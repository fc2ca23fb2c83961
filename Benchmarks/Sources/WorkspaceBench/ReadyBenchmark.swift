import Foundation

/// Ready time and memory of the release daemon on generated workspaces, each against the plain decode of the
/// same bytes, measured in the same run (issue 16; docs/benchmarks.md). The ready ratio is the median of the
/// rounds' ratios, each round a plain decode and a daemon start one after the other.
struct ReadyBenchmark {
    /// One file's figures.
    struct Row: Codable {
        var megabytes: Int
        var version: Int
        var fileBytes: Int
        var projects: Int
        var readySeconds: Double
        var baselineSeconds: Double
        var readyRatio: Double
        var readyGoal: Double
        var peakBytes: Int
        var baselinePeakBytes: Int
        var peakRatio: Double
        var residentAfterSaveBytes: Int
        var residentPerFileByte: Double
        /// The anonymous part of ``residentAfterSaveBytes`` (`RssAnon`): what the heap holds, without the binary's
        /// and the libraries' file-backed pages.
        var anonymousAfterSaveBytes: Int?
        var anonymousPerFileByte: Double?
        /// The peak RSS at READY=1 (the load's peak, before any save) of the daemon started on an empty workspace
        /// in the same run, of this load, and this ÷ (file + idle): what the load holds beyond its bytes (issue 29:
        /// ≤ 1.5, no map of the document; issue 46: ≤ 1.25 at 50 MB).
        var idlePeakBytes: Int?
        var loadPeakBytes: Int?
        var peakPerFileAndIdle: Double?
        var runs: [DaemonRun.Result]
    }

    /// The daemon's fixed start: exec → `READY=1` on an empty workspace, with its secret store installed, before
    /// any state is worth reading (issue 46: ≤ 5 ms).
    struct FixedStart: Codable {
        /// The median of the starts.
        var fixedStartSeconds: Double
        /// The fastest start, the least disturbed by other work on the machine.
        var fastestSeconds: Double
        /// How many starts.
        var starts: Int
        /// The goal for ``fixedStartSeconds``.
        var goalSeconds: Double
        /// The median of as many restarts, each after one of those starts, on what its clean stop left (the file
        /// with the favorite its durable change added, the journal's segment, the history directory): what
        /// `systemctl restart` meets. Absent from older results.
        var restartSeconds: Double?
        /// The fastest of those restarts.
        var restartFastestSeconds: Double?
        /// The median exec → `READY=1` of the start floor (``FloorRun``), each start just before one of the
        /// daemon's: what exec, the loader and the Swift runtime cost here, which no daemon change removes. Absent
        /// when not measured (`--floor`) and from older results.
        var floorSeconds: Double?
        /// The fastest of the floor's starts.
        var floorFastestSeconds: Double?
    }

    let daemon: String
    let sizes: [Int]
    let rounds: Int
    /// Sizes measured with ``largeRounds`` rounds instead of ``rounds`` (a 200 MB workspace: how the start grows
    /// with the work, where each round's plain decode takes seconds).
    var largeSizes: [Int] = []
    var largeRounds = 3
    /// Starts on the empty workspace, for ``FixedStart`` and the idle daemon's peak.
    var startRounds = 20
    /// The start floor's binary (Benchmarks/StartFloor), timed before each of those starts when given.
    var floor: String?

    /// Measures every size, both versions, printing each row as it comes, and the fixed start.
    func run() throws -> (rows: [Row], start: FixedStart) {
        let directory = FileManager.default.temporaryDirectory.path + "/workspace-bench-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let runner = try DaemonRun(daemon: daemon, directory: directory + "/daemon")
        let empty = Data(#"{"favorites":[],"minReaderVersion":4,"owner":{"alias":""},"projects":[],"version":4}"#.utf8)
        // Each first start is followed by a restart, which meets what that start's clean stop left: the file with
        // the favorite its durable change added, the journal's segment and the history directory.
        let floorRun = floor.map { FloorRun(binary: $0, directory: directory) }
        var floorStarts: [Double] = []
        let pairs = try (0..<max(1, startRounds)).map { _ in
            if let floorRun { floorStarts.append(try floorRun.measure()) }
            return (try runner.measure(empty), try runner.restart())
        }
        let idleRuns = pairs.map(\.0)
        let restarts = pairs.map(\.1.readySeconds)
        let idlePeak = Int(median(idleRuns.map { Double($0.atReady.peak) }))
        let start = FixedStart(
            fixedStartSeconds: median(idleRuns.map(\.readySeconds)),
            fastestSeconds: idleRuns.map(\.readySeconds).min() ?? 0, starts: idleRuns.count, goalSeconds: 0.005,
            restartSeconds: median(restarts), restartFastestSeconds: restarts.min(),
            floorSeconds: floorStarts.isEmpty ? nil : median(floorStarts), floorFastestSeconds: floorStarts.min())
        print(
            String(
                format:
                    "fixed start (exec → READY=1, empty workspace): median %.2f ms, fastest %.2f ms of %d (goal ≤ 5 ms)",
                start.fixedStartSeconds * 1000, start.fastestSeconds * 1000, start.starts))
        print(
            String(
                format: "restart (exec → READY=1, what a clean stop left): median %.2f ms, fastest %.2f ms",
                median(restarts) * 1000, (restarts.min() ?? 0) * 1000))
        if let floorSeconds = start.floorSeconds, let fastest = start.floorFastestSeconds {
            print(
                String(
                    format: "start floor (a Swift binary that only sends READY=1): median %.2f ms, fastest %.2f ms",
                    floorSeconds * 1000, fastest * 1000))
        }
        var rows: [Row] = []
        for megabytes in sizes + largeSizes {
            let rounds = largeSizes.contains(megabytes) && !sizes.contains(megabytes) ? largeRounds : rounds
            let files = try WorkspaceGenerator.make(bytes: megabytes * 1_000_000)
            for (version, bytes) in [(4, files.v4), (1, files.v1)] {
                let path = directory + "/v\(version)-\(megabytes)MB.json"
                try bytes.write(to: URL(fileURLWithPath: path))
                // A baseline process and a daemon start in turn, so that both see the same moment of a shared
                // machine; each decodes once in a fresh process, as the daemon loads once.
                var baselines: [Baseline.Result] = []
                var runs: [DaemonRun.Result] = []
                for _ in 0..<rounds {
                    baselines.append(try Baseline.run(path: path, rounds: 1))
                    runs.append(try runner.measure(bytes))
                }
                let ready = median(runs.map(\.readySeconds))
                let baseline = Baseline.Result(
                    decodeSeconds: median(baselines.map(\.decodeSeconds)),
                    peak: Int(median(baselines.map { Double($0.peak) })))
                let pairedRatio = median(zip(runs, baselines).map { $0.readySeconds / $1.decodeSeconds })
                let peak = Int(median(runs.map { Double($0.afterSave.peak) }))
                let loadPeak = Int(median(runs.map { Double($0.atReady.peak) }))
                let resident = Int(median(runs.map { Double($0.afterSave.resident) }))
                let anonymousReadings = runs.compactMap(\.afterSave.anonymous)
                let anonymous =
                    anonymousReadings.count == runs.count ? Int(median(anonymousReadings.map(Double.init))) : nil
                let row = Row(
                    megabytes: megabytes, version: version, fileBytes: bytes.count, projects: files.projects,
                    readySeconds: ready, baselineSeconds: baseline.decodeSeconds,
                    readyRatio: pairedRatio, readyGoal: version == 4 ? 0.5 : 1.0, peakBytes: peak,
                    baselinePeakBytes: baseline.peak, peakRatio: Double(peak) / Double(baseline.peak),
                    residentAfterSaveBytes: resident, residentPerFileByte: Double(resident) / Double(bytes.count),
                    anonymousAfterSaveBytes: anonymous,
                    anonymousPerFileByte: anonymous.map { Double($0) / Double(bytes.count) }, idlePeakBytes: idlePeak,
                    loadPeakBytes: loadPeak, peakPerFileAndIdle: Double(loadPeak) / Double(bytes.count + idlePeak),
                    runs: runs)
                print(Self.line(row))
                rows.append(row)
            }
        }
        return (rows, start)
    }

    static let header =
        "size   file        ready    plain decode  ratio (goal)   peak RSS   plain peak  ratio (≤ 1.2)"
        + "  RSS after save ÷ file (≤ 4)  anonymous ÷ file  load's peak ÷ (file + idle) (≤ 1.25 at 50 MB)"

    static func line(_ row: Row) -> String {
        func ms(_ seconds: Double) -> String { String(format: "%7.1f ms", seconds * 1000) }
        func mb(_ bytes: Int) -> String { String(format: "%6.1f MB", Double(bytes) / 1_000_000) }
        let anonymous = row.anonymousAfterSaveBytes.map(mb) ?? "–"
        let anonymousRatio = row.anonymousPerFileByte.map { String(format: "%5.2f", $0) } ?? "–"
        return
            "\(String(format: "%2d MB", row.megabytes))  v\(row.version) \(mb(row.fileBytes))  \(ms(row.readySeconds))"
            + "  \(ms(row.baselineSeconds))  \(String(format: "%5.2f (≤ %.1f)", row.readyRatio, row.readyGoal))"
            + "  \(mb(row.peakBytes))  \(mb(row.baselinePeakBytes))  \(String(format: "%5.2f", row.peakRatio))"
            + "          \(mb(row.residentAfterSaveBytes)) \(String(format: "%5.2f", row.residentPerFileByte))"
            + "    \(anonymous) \(anonymousRatio)"
            + "       \(row.peakPerFileAndIdle.map { String(format: "%5.2f", $0) } ?? "–")"
    }
}
