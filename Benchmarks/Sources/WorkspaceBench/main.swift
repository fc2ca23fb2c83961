// WorkspaceBench: the benchmarks of workspaced on the real workspace (docs/benchmarks.md).
//
//   WorkspaceBench ready --daemon PATH [--sizes 1,10,50] [--rounds 5] [--large-sizes 200] [--large-rounds 3]
//       [--start-rounds 20] [--floor PATH] [--json PATH] [--commit ID]
//   WorkspaceBench generate --megabytes N --out DIRECTORY      (v4-N.json and v1-N.json)
//   WorkspaceBench persistence --daemon PATH [--sizes 1,10,50] [--rounds 5] [--stream-seconds 10] [--json PATH]
//       [--commit ID]
//   WorkspaceBench control --daemon PATH [--megabytes 10] [--rounds 7] [--requests 4000] [--clients 16] [--json PATH]
//       [--commit ID]
//   WorkspaceBench peer [--sizes 1,10,50] [--rounds 5] [--directory DIR] [--json PATH] [--commit ID]
//       (the same workspace in SQLite through GRDB against the JSON file; peer-measure is its child process)
//   WorkspaceBench history [--sizes 1,10] [--rounds 5] [--read-megabytes 10] [--replay-mebibytes 16] [--read-rounds 9]
//       [--footprint-megabytes 0.1,10] [--footprint-seconds 120] [--footprint-kept-kibibytes 65536] [--directory DIR]
//       [--json PATH] [--commit ID]
//       (the history of issue 42: the persistence workloads off and on, a read of the past, the bytes of renames)
//   WorkspaceBench replica [--rounds 5] [--replica-megabytes 10] [--replica-journal-mebibytes 16] [--lag-seconds 60]
//       [--lag-rate 10000] [--directory DIR] [--json PATH] [--commit ID]
//       (replication of issue 43 against the S3 server in WSD_S3_ENDPOINT: Scripts/with-s3-server.sh starts one)
//   WorkspaceBench replay [--megabytes 10] [--journal-mebibytes 16] [--rounds 5] [--directory DIR] [--json PATH]
//       [--commit ID]                                         (a start after a crash: load + journal replay)
//   WorkspaceBench records [--rounds 7]                       (journal records: the direct reader and writer
//                                                               against JSONDecoder and JSONEncoder)
//   WorkspaceBench baseline FILE ROUNDS                        (the plain decode, in a process of its own)
import BenchResults
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The value after `--name` in the arguments, if any.
func option(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: "--" + name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

/// The workspace sizes of `--sizes`, in megabytes (1, 10 and 50 by default).
func sizesOption() -> [Int] {
    (option("sizes") ?? "1,10,50").split(separator: ",").compactMap { Int($0) }
}

/// The rounds of `--rounds`, or `defaultRounds`.
func roundsOption(default defaultRounds: Int) -> Int {
    option("rounds").flatMap(Int.init) ?? defaultRounds
}

/// Writes `value` as section `section` of the `--json` results file, if one is named, with `--commit`.
func record(section: String, value: some Encodable, rounds: Int) throws {
    guard let path = option("json") else { return }
    try Results.update(
        path: path, section: section, value: value, commit: option("commit") ?? "unknown", rounds: rounds)
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("WorkspaceBench: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
switch arguments.dropFirst().first {
case "baseline":
    guard arguments.count == 4, let rounds = Int(arguments[3]) else { fail("usage: baseline FILE ROUNDS") }
    do {
        let result = try Baseline.runHere(path: arguments[2], rounds: rounds)
        print(String(decoding: try JSONEncoder().encode(result), as: UTF8.self))
    } catch {
        fail("\(error)")
    }
case "generate":
    guard let megabytes = option("megabytes").flatMap(Int.init), let out = option("out") else {
        fail("usage: generate --megabytes N --out DIRECTORY")
    }
    do {
        let files = try WorkspaceGenerator.make(bytes: megabytes * 1_000_000)
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try files.v4.write(to: URL(fileURLWithPath: "\(out)/v4-\(megabytes).json"))
        try files.v1.write(to: URL(fileURLWithPath: "\(out)/v1-\(megabytes).json"))
        print("\(files.projects) projects: v4 \(files.v4.count) bytes, v1 \(files.v1.count) bytes")
    } catch {
        fail("\(error)")
    }
case "ready":
    guard let daemon = option("daemon") else { fail("usage: ready --daemon PATH [--sizes 1,10,50] [--rounds 5]") }
    let (sizes, rounds) = (sizesOption(), roundsOption(default: 5))
    var benchmark = ReadyBenchmark(daemon: daemon, sizes: sizes, rounds: rounds)
    benchmark.largeSizes = (option("large-sizes") ?? "").split(separator: ",").compactMap { Int($0) }
    benchmark.largeRounds = option("large-rounds").flatMap(Int.init) ?? 3
    benchmark.startRounds = option("start-rounds").flatMap(Int.init) ?? 20
    benchmark.floor = option("floor")
    print(ReadyBenchmark.header)
    do {
        let (rows, start) = try benchmark.run()
        try record(section: "ready", value: rows, rounds: rounds)
        try record(section: "start", value: start, rounds: benchmark.startRounds)
    } catch {
        fail("\(error)")
    }
case "persistence":
    guard let daemon = option("daemon") else {
        fail("usage: persistence --daemon PATH [--sizes 1,10,50] [--rounds 5] [--stream-seconds 10]")
    }
    let (sizes, rounds) = (sizesOption(), roundsOption(default: 5))
    let streamSeconds = option("stream-seconds").flatMap(Int.init) ?? 10
    do {
        let rows = try PersistenceBenchmark(daemon: daemon, sizes: sizes, rounds: rounds, streamSeconds: streamSeconds)
            .run()
        try record(section: "persistence", value: rows, rounds: rounds)
    } catch {
        fail("\(error)")
    }
case "control":
    guard let daemon = option("daemon") else {
        fail("usage: control --daemon PATH [--megabytes 10] [--rounds 7] [--requests 4000] [--clients 16]")
    }
    let megabytes = option("megabytes").flatMap(Int.init) ?? 10
    let rounds = roundsOption(default: 7)
    let benchmark = ControlBenchmark(
        daemon: daemon, megabytes: megabytes, clients: option("clients").flatMap(Int.init) ?? 16,
        requests: option("requests").flatMap(Int.init) ?? 4000, rounds: rounds)
    do {
        let result = try blocking { try await benchmark.run() }
        try record(section: "control", value: result, rounds: rounds)
    } catch {
        fail("\(error)")
    }
case "peer":
    let (sizes, rounds) = (sizesOption(), roundsOption(default: 5))
    let directory = option("directory") ?? FileManager.default.temporaryDirectory.path
    print(PeerBenchmark.header)
    do {
        let rows = try PeerBenchmark(sizes: sizes, rounds: rounds, directory: directory).run()
        try record(section: "peer", value: rows, rounds: rounds)
    } catch {
        fail("\(error)")
    }
case "history":
    let rounds = roundsOption(default: 5)
    let benchmark = HistoryBenchmark.fromCommandLine(rounds: rounds)
    do {
        try record(section: "history", value: try benchmark.run(), rounds: rounds)
    } catch {
        fail("\(error)")
    }
case "replica":
    let rounds = roundsOption(default: 5)
    do {
        let benchmark = try ReplicaBenchmark.fromCommandLine(rounds: rounds)
        try record(section: "replica", value: try benchmark.run(), rounds: rounds)
    } catch {
        fail("\(error)")
    }
case "metrics":
    let rounds = roundsOption(default: 5)
    do {
        let benchmark = try MetricsBenchmark.fromCommandLine(rounds: rounds)
        try record(section: "metrics", value: try benchmark.run(), rounds: rounds)
    } catch {
        fail("\(error)")
    }
case "replay":
    do {
        let megabytes = option("megabytes").flatMap(Int.init) ?? 10
        let rounds = roundsOption(default: 5)
        let figures = try StartReplayTiming(
            file: try WorkspaceGenerator.make(bytes: megabytes * 1_000_000).v4,
            directory: (option("directory") ?? FileManager.default.temporaryDirectory.path) + "/workspace-replay-"
                + UUID().uuidString,
            journalBytes: (option("journal-mebibytes").flatMap(Int.init) ?? 16) << 20,
            rounds: rounds
        ).run()
        try record(section: "replay", value: figures, rounds: rounds)
    } catch {
        fail("\(error)")
    }
case "records":
    do {
        try RecordDecodeTiming.run(rounds: roundsOption(default: 7))
        try RecordEncodeTiming.run(rounds: roundsOption(default: 7))
    } catch {
        fail("\(error)")
    }
case "peer-measure":
    guard arguments.count == 6, let store = PeerMeasurement.Store(rawValue: arguments[2]),
        let operation = PeerMeasurement.Operation(rawValue: arguments[3])
    else { fail("usage: peer-measure json|sqlite load|save|change PATH PROJECT-ID") }
    do {
        let result = try PeerMeasurement.runHere(
            store: store, operation: operation, path: arguments[4], projectID: arguments[5])
        print(String(decoding: try JSONEncoder().encode(result), as: UTF8.self))
    } catch {
        fail("\(error)")
    }
default:
    fail("usage: WorkspaceBench ready|persistence|control|peer|history|generate|baseline …")
}
