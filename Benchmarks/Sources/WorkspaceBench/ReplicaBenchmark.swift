import Foundation
import StateStore
import StateStoreS3
import WorkspaceClient
import WorkspaceModel
import WorkspaceStorage

/// Replication (issue 43), against an S3 server on loopback (moto's, `Scripts/with-s3-server.sh` names it in
/// `WSD_S3_ENDPOINT`), the ratios measured in one run:
///
/// - **durable changes**: a rename applied and waited for until durable (`waitUntilDurable`, the journal's
///   fdatasync), in blocks with a replicator running (lease held, passes every second) and without, interleaved;
/// - **restore**: ``ReplicaRestore`` of a 10 MB workspace followed by 16 MiB of journal, then the start's load and
///   replay, against the same load and replay of the same files left by a crash;
/// - **lag**: renames at a fixed rate with the replicator's default interval (1 s) for a while; when they stop,
///   how long until the replica holds the last one, against 2 × the interval.
struct ReplicaBenchmark {
    /// The figures.
    struct Result: Codable {
        /// Median seconds of a durable change without replication, and with it.
        var durableOffSeconds: Double
        var durableOnSeconds: Double
        /// `durableOnSeconds / durableOffSeconds`; the goal is at most 1.1.
        var durableRatio: Double
        var durableGoal = 1.1
        /// Median seconds of the load and replay after a crash, and of the restore followed by them.
        var readyAfterCrashSeconds: Double
        var restoreAndReadySeconds: Double
        /// `restoreAndReadySeconds / readyAfterCrashSeconds`; the goal is at most 2.
        var restoreRatio: Double
        var restoreGoal = 2.0
        /// The state file's bytes and the journal's, restored.
        var snapshotBytes: Int
        var journalBytes: Int
        /// The rate and duration of the lag run, the changes made, and how long after the last one the replica
        /// held it.
        var lagChangesPerSecond: Int
        var lagSeconds: Int
        var lagChanges: Int
        var catchUpSeconds: Double
        /// The sync interval, and `catchUpSeconds / (2 × interval)`: the goal is at most 1.
        var syncIntervalSeconds = 1.0
        var lagRatio: Double
        /// With `--daemon`: the control API's changes per second (16 clients) on the release daemon without and with
        /// replication (lease held, `replica.durableAcknowledgement` false), median of the rounds, and on ÷ off;
        /// the goal is at least 0.9.
        var controlOffPerSecond: Double?
        var controlOnPerSecond: Double?
        var controlRatio: Double?
    }

    let endpoint: URL
    let file: Data
    let directory: String
    let rounds: Int
    let journalBytes: Int
    let lagSeconds: Int
    let lagRate: Int
    /// The release daemon for the control API phase; none skips it.
    var daemon: String?

    /// The benchmark from `--replica-megabytes` (10), `--replica-journal-mebibytes` (16), `--lag-seconds` (60),
    /// `--lag-rate` (10000), `--rounds` and `--directory`.
    static func fromCommandLine(rounds: Int) throws -> ReplicaBenchmark {
        guard let text = ProcessInfo.processInfo.environment["WSD_S3_ENDPOINT"], let endpoint = URL(string: text) else {
            throw BenchError("WSD_S3_ENDPOINT names no S3 server: run it through Scripts/with-s3-server.sh")
        }
        let megabytes = option("replica-megabytes").flatMap(Int.init) ?? 10
        let directory = (option("directory") ?? FileManager.default.temporaryDirectory.path) + "/replica-bench"
        return ReplicaBenchmark(
            endpoint: endpoint, file: try WorkspaceGenerator.make(bytes: megabytes * 1_000_000).v4,
            directory: directory, rounds: rounds,
            journalBytes: (option("replica-journal-mebibytes").flatMap(Int.init) ?? 16) << 20,
            lagSeconds: option("lag-seconds").flatMap(Int.init) ?? 60,
            lagRate: option("lag-rate").flatMap(Int.init) ?? 10_000, daemon: option("daemon"))
    }

    func run() throws -> Result {
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let (off, on) = try durableChanges()
        print(
            String(
                format: "durable change: %.3f ms off, %.3f ms on, ratio %.3f (goal ≤ 1.1)", off * 1e3, on * 1e3,
                on / off))
        let restore = try restoreTiming()
        print(
            String(
                format:
                    "restore of %.1f MB + %.1f MiB journal: %.0f ms restore+ready vs %.0f ms ready after a crash, ratio %.2f (goal ≤ 2)",
                Double(restore.snapshot) / 1e6, Double(restore.journal) / 1_048_576, restore.restored * 1e3,
                restore.ready * 1e3, restore.restored / restore.ready))
        let lag = try lagRun()
        print(
            String(
                format: "lag: %d changes at %d/s for %d s; the replica held the last %.2f s after it (goal ≤ 2 s)",
                lag.changes, lagRate, lagSeconds, lag.catchUp))
        var control: (off: Double, on: Double)?
        if let daemon {
            control = try blocking { try await controlRun(daemon: daemon) }
            print(
                String(
                    format: "control API: %.0f changes/s off, %.0f on, ratio %.3f (goal ≥ 0.9)", control!.off,
                    control!.on, control!.on / control!.off))
        }
        return Result(
            durableOffSeconds: off, durableOnSeconds: on, durableRatio: on / off, readyAfterCrashSeconds: restore.ready,
            restoreAndReadySeconds: restore.restored, restoreRatio: restore.restored / restore.ready,
            snapshotBytes: restore.snapshot, journalBytes: restore.journal, lagChangesPerSecond: lagRate,
            lagSeconds: lagSeconds, lagChanges: lag.changes, catchUpSeconds: lag.catchUp, lagRatio: lag.catchUp / 2,
            controlOffPerSecond: control?.off, controlOnPerSecond: control?.on,
            controlRatio: control.map { $0.on / $0.off })
    }

    /// The control API's change phase (16 clients adding favorites) on two release daemons holding the same
    /// workspace, one replicating to the S3 server, in interleaved rounds; median changes per second of each.
    private func controlRun(daemon: String) async throws -> (off: Double, on: Double) {
        let bucket = "bench-control-\(UUID().uuidString.lowercased().prefix(8))"
        let creator = S3ReplicaTarget(
            configuration: S3ReplicaConfiguration(
                bucket: bucket, endpoint: endpoint,
                credentials: SigV4Credentials(accessKeyID: "bench", secretAccessKey: "bench")))
        try creator.createBucket()
        creator.shutdown()
        let save = #""save": {"debounceMilliseconds": 500, "maximumDelayMilliseconds": 5000}"#
        let off = try DaemonProcess(
            daemon: daemon, directory: directory + "/control-off", file: file, configuration: "{\(save)}")
        let on = try DaemonProcess(
            daemon: daemon, directory: directory + "/control-on", file: file,
            configuration: """
                {\(save), "replica": {"url": "s3://\(bucket)/workspace", "endpoint": "\(endpoint.absoluteString)",
                "encryption": "none"}}
                """,
            environment: ["AWS_ACCESS_KEY_ID": "bench", "AWS_SECRET_ACCESS_KEY": "bench"])
        defer {
            _ = try? off.terminate()
            _ = try? on.terminate()
        }
        var offRates: [Double] = []
        var onRates: [Double] = []
        for round in 1...max(1, rounds) {
            for (name, running) in [("off", off), ("on", on)] {
                let client = WorkspaceClient(socketPath: running.socketPath, timeout: .seconds(60))
                let phase = try await PhaseMeasurement.measure(
                    "round \(round) replica \(name): add favorite", clients: 16, requests: 2000
                ) { worker, index in
                    _ = try await client.addFavorite(
                        name: "bench-\(round)-\(worker)-\(index)", path: "/bench/\(round)/\(worker)/\(index)")
                }
                _ = try await client.flush()
                if name == "off" { offRates.append(phase.perSecond) } else { onRates.append(phase.perSecond) }
            }
        }
        return (median(offRates), median(onRates))
    }

    /// A target on a bucket of its own.
    private func target(_ name: String) throws -> S3ReplicaTarget {
        let target = S3ReplicaTarget(
            configuration: S3ReplicaConfiguration(
                bucket: "bench-\(name)-\(UUID().uuidString.lowercased().prefix(8))", prefix: "workspace",
                endpoint: endpoint, credentials: SigV4Credentials(accessKeyID: "bench", secretAccessKey: "bench")))
        try target.createBucket()
        return target
    }

    /// A journaled state with history in `path`'s directory, saved once, never again on its own.
    private func openState(_ path: String) throws -> (StateFile<Workspace>, PersistentState<Workspace>) {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try file.write(to: URL(fileURLWithPath: path))
        let stateFile = StateFile(path: path, schema: try WorkspaceSchema.make())
        let state = try PersistentState(
            file: stateFile, loaded: try stateFile.load(), journaling: WorkspaceChange.self,
            journal: JournalConfiguration(maximumByteCount: 64 << 20, maximumStateFraction: .infinity),
            history: HistoryConfiguration(),
            configuration: PersistenceConfiguration(debounce: .seconds(3600), maximumDelay: .seconds(3600)))
        try state.saveSynchronously()
        return (stateFile, state)
    }

    /// Median seconds of a durable rename without and with a replicator shipping every second, in interleaved
    /// blocks of 200.
    private func durableChanges() throws -> (Double, Double) {
        let (stateFile, state) = try openState(directory + "/durable/workspace.json")
        defer { stateFile.unlock() }
        let ids = state.read { Array($0.projects.prefix(100).map(\.id)) }
        let target = try target("durable")
        defer { target.shutdown() }
        let replicator = Replicator(
            stateFilePath: stateFile.path, target: target,
            configuration: ReplicatorConfiguration(installation: "bench", digest: .crypto))
        var index = 0
        func block() throws -> [Double] {
            try (0..<200).map { _ in
                index += 1
                return try timed {
                    let applied = try state.apply(
                        WorkspaceChange.updateProject(
                            id: ids[index % ids.count], name: "renamed \(index)", layout: nil),
                        returning: { _ in () })
                    try blocking { try await state.waitUntilDurable(applied.revision) }
                }
            }
        }
        var off: [Double] = []
        var on: [Double] = []
        for _ in 0..<max(1, rounds) {
            off += try block()
            replicator.start()
            on += try block()
            replicator.stop()
        }
        return (median(off), median(on))
    }

    /// The restore of a state whose journal holds ``journalBytes`` after its snapshot, then its load and replay,
    /// against the load and replay of a copy of the crashed files.
    private func restoreTiming() throws -> (ready: Double, restored: Double, snapshot: Int, journal: Int) {
        let path = directory + "/source/workspace.json"
        let (stateFile, state) = try openState(path)
        let ids = state.read { Array($0.projects.prefix(100).map(\.id)) }
        let target = try target("restore")
        defer { target.shutdown() }
        let replicator = Replicator(
            stateFilePath: path, target: target,
            configuration: ReplicatorConfiguration(installation: "bench", digest: .crypto))
        var index = 0
        while (state.journalStatus?.byteCount ?? 0) < journalBytes {
            for _ in 0..<256 {
                index += 1
                try WorkspaceTouch.rename(state, ids: ids, index)
            }
        }
        try blocking { try await state.waitUntilDurable(state.status.revision) }
        guard replicator.sync().lastError == nil else { throw BenchError("\(replicator.status)") }
        let revision = state.status.revision
        stateFile.unlock()  // A crash: the journal holds every change since the snapshot.
        let crashed = directory + "/crashed"
        try FileManager.default.createDirectory(atPath: crashed, withIntermediateDirectories: true)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory + "/source")
        var journal = 0
        for name in names where name == "workspace.json" || name.hasPrefix("workspace.json.journal.") {
            try FileManager.default.copyItem(atPath: directory + "/source/" + name, toPath: crashed + "/" + name)
            if name != "workspace.json" { journal += HistoryReadTiming.size(of: crashed + "/" + name) }
        }
        var ready: [Double] = []
        var restored: [Double] = []
        for round in 0..<max(1, rounds) {
            let copy = directory + "/ready-\(round)"
            try FileManager.default.copyItem(atPath: crashed, toPath: copy)
            ready.append(try timed { try startAndCheck(copy + "/workspace.json", revision: revision) })
            let into = directory + "/restored-\(round)"
            try FileManager.default.createDirectory(atPath: into, withIntermediateDirectories: true)
            restored.append(
                try timed {
                    _ = try ReplicaRestore.restore(
                        from: target, stateFilePath: into + "/workspace.json", digest: .crypto)
                    try startAndCheck(into + "/workspace.json", revision: revision)
                })
            try? FileManager.default.removeItem(atPath: copy)
            try? FileManager.default.removeItem(atPath: into)
        }
        return (median(ready), median(restored), HistoryReadTiming.size(of: crashed + "/workspace.json"), journal)
    }

    /// A start: load, replay the journal, and check the revision it reaches.
    private func startAndCheck(_ path: String, revision: UInt64) throws {
        let stateFile = StateFile(path: path, schema: try WorkspaceSchema.make())
        defer { stateFile.unlock() }
        let state = try PersistentState(
            file: stateFile, loaded: try stateFile.load(), journaling: WorkspaceChange.self,
            configuration: PersistenceConfiguration(debounce: .seconds(3600), maximumDelay: .seconds(3600)))
        guard state.status.revision == revision else {
            throw BenchError("the start reached revision \(state.status.revision), not \(revision)")
        }
    }

    /// Renames at ``lagRate`` per second for ``lagSeconds`` with a replicator at its default interval, then the
    /// time until the replica holds the last one.
    private func lagRun() throws -> (changes: Int, catchUp: Double) {
        let (stateFile, state) = try openState(directory + "/lag/workspace.json")
        defer { stateFile.unlock() }
        let ids = state.read { Array($0.projects.prefix(100).map(\.id)) }
        let target = try target("lag")
        defer { target.shutdown() }
        let replicator = Replicator(
            stateFilePath: stateFile.path, target: target,
            configuration: ReplicatorConfiguration(installation: "bench", digest: .crypto))
        replicator.start()
        defer { replicator.stop() }
        let start = ContinuousClock.now
        let end = start + .seconds(lagSeconds)
        var index = 0
        while ContinuousClock.now < end {
            let due = Int(Double(lagRate) * (ContinuousClock.now - start).seconds)
            while index < due {
                index += 1
                try WorkspaceTouch.rename(state, ids: ids, index)
            }
            // Saves as the daemon's debounce would, every 2 MiB of journal, moving segments into the history.
            if (state.journalStatus?.byteCount ?? 0) >= 2 << 20 { try state.flushSynchronously() }
            usleep(1000)
        }
        let last = state.status.revision
        try blocking { try await state.waitUntilDurable(state.status.revision) }
        let stopped = ContinuousClock.now
        while (replicator.status.replicatedRevision ?? 0) < last {
            if ContinuousClock.now - stopped > .seconds(120) { throw BenchError("the replica never caught up") }
            usleep(5000)
        }
        return (index, (ContinuousClock.now - stopped).seconds)
    }
}
