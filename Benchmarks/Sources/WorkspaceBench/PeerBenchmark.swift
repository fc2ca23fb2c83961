import Foundation
import Synchronization
import WorkspaceModel

/// The workspace kept in one JSON file through `StateStore` against the same workspace in SQLite through GRDB
/// (``SQLiteWorkspace``), measured in the same run (issue 16; docs/benchmarks.md): load everything, save
/// everything, one durable single-record change, the peak memory of each and the size of each store on disk.
///
/// Every measurement runs in a child process of its own (``PeerMeasurement``) on a fresh copy of the store; the
/// rounds interleave the stores so that whatever else the machine does weighs on both alike. Both stores sit in
/// the same directory, on the same file system, with the page cache warm from the copy.
struct PeerBenchmark {
    /// The new name of the project a change renames.
    static let newName = "renamed by the benchmark"
    /// The clients of the concurrent durable changes.
    static let clients = 16
    /// The durable changes each client makes, one after the other.
    static let changesPerClient = 20

    /// Runs `body` on ``clients`` threads at once, numbered from 0; returns once all are done, throwing the first
    /// error.
    static func onClientThreads(_ body: @escaping @Sendable (Int) throws -> Void) throws {
        let group = DispatchGroup()
        let failure = Mutex<(any Error)?>(nil)
        for client in 0..<clients {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                do { try body(client) } catch { failure.withLock { $0 = $0 ?? error } }
            }
            thread.start()
        }
        group.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// One store's figures at one size: medians over the rounds.
    struct Figures: Codable {
        /// Load everything into the model.
        var loadSeconds: Double
        /// Save everything, durably.
        var saveSeconds: Double
        /// Rename one project, durably.
        var changeSeconds: Double
        /// Rename one project, durably, through the change journal (the JSON file since issue 28; SQLite: the
        /// same as ``changeSeconds``, measured again). `nil` in results from before it.
        var journaledChangeSeconds: Double?
        /// Seconds for ``PeerBenchmark/clients`` clients to make ``PeerBenchmark/changesPerClient`` durable changes
        /// each, concurrently (the JSON file through its journal). `nil` in results from before it.
        var concurrentChangesSeconds: Double?
        /// Seconds to be ready after a crash that left a full change journal (``Row/crashJournalBytes``): the load
        /// and the replay (SQLite: the load). `nil` in results from before it.
        var readyAfterCrashSeconds: Double?
        /// The highest of the three measurements' peak resident memory (each a process of its own; a save's and
        /// a change's include the load before them, as they would in a program).
        var peakBytes: Int
    }

    /// Both stores at one size.
    struct Row: Codable {
        var megabytes: Int
        var fileBytes: Int
        var sqliteBytes: Int
        var projects: Int
        /// Projects, panes, tabs and favorites, and the owner: the rows of the database.
        var records: Int
        var json: Figures
        var sqlite: Figures
        /// The journal a crash leaves when full, the default bound for the file's size, which the ready after a
        /// crash replays (16 MiB at every size before the bound followed the state's). `nil` in results from before.
        var crashJournalBytes: Int?
    }

    let sizes: [Int]
    let rounds: Int
    /// Where the stores are kept while measured (a directory made under it and removed after). It must be on a
    /// disk: on a tmpfs an fsync costs nothing and neither store's durability would be measured.
    let directory: String

    /// Measures every size, printing each row as it comes.
    func run() throws -> [Row] {
        let work = directory + "/workspace-peer-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        var rows: [Row] = []
        for megabytes in sizes {
            let row = try measure(megabytes: megabytes, in: work)
            print(Self.line(row))
            rows.append(row)
        }
        return rows
    }

    /// Both stores of a generated workspace of about `megabytes` MB, each operation `rounds` times.
    private func measure(megabytes: Int, in work: String) throws -> Row {
        let files = try WorkspaceGenerator.make(bytes: megabytes * 1_000_000)
        let jsonMaster = work + "/master-\(megabytes).json"
        let sqliteMaster = work + "/master-\(megabytes).sqlite"
        try files.v4.write(to: URL(fileURLWithPath: jsonMaster))
        // The database holds what StateStore loads from the file; reading it back must give the same workspace.
        let model = try JSONStoreRun(path: jsonMaster).open().load().model
        try fill(sqliteMaster, with: model)
        let panes = model.projects.reduce(0) { $0 + $1.panes.count }
        let tabs = model.projects.reduce(0) { $0 + $1.panes.reduce(0) { $0 + $1.tabs.count } }
        let projectID = model.projects[model.projects.count / 2].id.text
        var samples: [PeerMeasurement.Store: [PeerMeasurement.Operation: [PeerMeasurement]]] = [:]
        for _ in 0..<max(1, rounds) {
            for store in PeerMeasurement.Store.allCases {
                for operation in PeerMeasurement.Operation.allCases {
                    let round = work + "/round"
                    try? FileManager.default.removeItem(atPath: round)
                    try FileManager.default.createDirectory(atPath: round, withIntermediateDirectories: true)
                    let path = round + (store == .json ? "/workspace.json" : "/workspace.sqlite")
                    try FileManager.default.copyItem(atPath: store == .json ? jsonMaster : sqliteMaster, toPath: path)
                    let result = try PeerMeasurement.run(
                        store: store, operation: operation, path: path, projectID: projectID)
                    samples[store, default: [:]][operation, default: []].append(result)
                }
            }
        }
        func figures(_ store: PeerMeasurement.Store) -> Figures {
            let byOperation = samples[store] ?? [:]
            func seconds(_ operation: PeerMeasurement.Operation) -> Double {
                median((byOperation[operation] ?? []).map(\.seconds))
            }
            // The peak of the three whole-store operations; the journal's measurements make their own work first.
            let peaks = [PeerMeasurement.Operation.load, .save, .change].map { operation in
                Int(median((byOperation[operation] ?? []).map { Double($0.peak) }))
            }
            return Figures(
                loadSeconds: seconds(.load), saveSeconds: seconds(.save), changeSeconds: seconds(.change),
                journaledChangeSeconds: seconds(.journaledChange),
                concurrentChangesSeconds: seconds(.concurrentChanges),
                readyAfterCrashSeconds: seconds(.readyAfterCrash), peakBytes: peaks.max() ?? 0)
        }
        return Row(
            megabytes: megabytes, fileBytes: files.v4.count, sqliteBytes: SQLiteWorkspace.bytesOnDisk(sqliteMaster),
            projects: model.projects.count,
            records: model.projects.count + panes + tabs + model.favorites.count + 1,
            json: figures(.json), sqlite: figures(.sqlite),
            crashJournalBytes: JSONStoreRun.journalBound(fileBytes: files.v4.count))
    }

    /// Creates the database at `path` holding `model`, closes it, and checks that it reads back as `model`.
    private func fill(_ path: String, with model: Workspace) throws {
        let queue = try SQLiteWorkspace.open(path)
        try SQLiteWorkspace.insert(model, into: queue)
        try queue.close()
        let reader = try SQLiteWorkspace.open(path)
        defer { try? reader.close() }
        guard try SQLiteWorkspace.load(from: reader) == model else {
            throw BenchError("the database at \(path) does not read back as the workspace written into it")
        }
    }

    static let header =
        "size   JSON file   SQLite     records   load JSON / SQLite     save JSON / SQLite     "
        + "change JSON / SQLite   journaled JSON / SQLite   16 clients x 20 JSON / SQLite   "
        + "ready after a crash (full journal)   peak RSS JSON / SQLite"

    static func line(_ row: Row) -> String {
        func ms(_ seconds: Double) -> String { String(format: "%8.1f ms", seconds * 1000) }
        func mb(_ bytes: Int) -> String { String(format: "%6.1f MB", Double(bytes) / 1_000_000) }
        return "\(String(format: "%2d MB", row.megabytes))  \(mb(row.fileBytes))  \(mb(row.sqliteBytes))"
            + "  \(String(format: "%8d", row.records))  \(ms(row.json.loadSeconds)) \(ms(row.sqlite.loadSeconds))"
            + "  \(ms(row.json.saveSeconds)) \(ms(row.sqlite.saveSeconds))"
            + "  \(ms(row.json.changeSeconds)) \(ms(row.sqlite.changeSeconds))"
            + "  \(ms(row.json.journaledChangeSeconds ?? 0)) \(ms(row.sqlite.journaledChangeSeconds ?? 0))"
            + "  \(ms(row.json.concurrentChangesSeconds ?? 0)) \(ms(row.sqlite.concurrentChangesSeconds ?? 0))"
            + "  \(ms(row.json.readyAfterCrashSeconds ?? 0))"
            + String(format: " (%.1f MiB)", Double(row.crashJournalBytes ?? 0) / 1_048_576)
            + "  \(mb(row.json.peakBytes)) \(mb(row.sqlite.peakBytes))"
    }
}
