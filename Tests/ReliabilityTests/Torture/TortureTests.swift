import Foundation
import StateStore
import TestSupport
import Testing
import WorkspaceModel
import WorkspaceStorage

#if canImport(Glibc)
import Glibc
#endif

/// Issue 15, items 4 and 5: the shipped daemon killed (SIGKILL) or stopped (SIGTERM) at random instants while 16
/// clients change the workspace over the control API, plain and durable, then started again on the same state
/// directory. After a kill, the state file with the change journal replayed holds every acknowledged change (issue
/// 28); after a stop, the state file alone holds them and the journal none. Rounds: `WSD_TORTURE_KILL_ROUNDS` (default 100) and `WSD_TORTURE_TERM_ROUNDS` (default 30); `make
/// soak` runs 1,000 and 300. The seed is printed with every failure, and `WSD_TORTURE_SEED` replays a run.
@Suite("SIGKILL and SIGTERM torture of the workspaced binary", .serialized)
struct TortureTests {
    static let clients = 16
    static var seed: UInt64 {
        ProcessInfo.processInfo.environment["WSD_TORTURE_SEED"].flatMap { UInt64($0) }
            ?? UInt64(Date().timeIntervalSince1970 * 1000)
    }

    /// The torture's world: one state directory across rounds, starting from a version-1 file (so the first start
    /// migrates and keeps a backup), and the notify datagrams counted per start.
    final class World {
        let harness: TestDaemon
        let backupsKept = 2
        /// The temporary files a kill left, as the last start found them: its sweep must remove every one.
        private(set) var leftoverTemporaryFiles: Set<String> = []

        init() throws {
            harness = try TestDaemon()
            try harness.writeConfig(
                #"{"save": {"debounceMilliseconds": 10, "maximumDelayMilliseconds": 50}, "backupsKept": 2}"#)
            try harness.writeState(try WorkspaceFixtures.data("versions/v1.json"))
        }

        func readyCount() -> Int { harness.count("READY=1") }

        /// Starts the daemon and waits for READY=1 (or its exit); whether it became ready.
        func start(round: Int) async throws -> (RunningProcess, ready: Bool) {
            leftoverTemporaryFiles = Set(names { $0.hasPrefix(".workspace.json.tmp-") })
            let (process, ready, _) = try await harness.startUntilReadyOrExit(output: "round-\(round).log")
            return (process, ready)
        }

        /// The favorite names in the state file, or `nil` when it does not parse.
        func namesOnDisk() -> Set<String>? {
            guard let data = try? harness.stateBytes(),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let favorites = object["favorites"] as? [[String: Any]]
            else { return nil }
            return Set(favorites.compactMap { $0["name"] as? String })
        }

        /// The favorite names a start would serve: the state file with the change journal's changes replayed, read
        /// without a lock or a change; `nil` when it does not load. Also whether the journal held any change.
        func namesServed() -> Result<(names: Set<String>, journaled: Int), ServedError> {
            let file = StateFile(
                path: harness.statePath, schema: WorkspaceSchema.shipped,
                configuration: StateFileConfiguration(locking: .none))
            do {
                let (workspace, replay) = try file.replayingJournal(WorkspaceChange.self, onto: try file.load())
                guard replay.keptAside.isEmpty else { return .failure(ServedError(description: "\(replay)")) }
                return .success((Set(workspace.favorites.map(\.name)), replay.recordsReplayed))
            } catch {
                return .failure(ServedError(description: "\(error)"))
            }
        }

        /// Copies the harness's directory (the state directory, its journal and history, every round's log) to
        /// `.build/torture-failures/<seed>-<round>` for a diagnosis after the harness is gone; returns where, or `nil`
        /// when it could not.
        func keepForDiagnosis(seed: UInt64, round: Int) -> String? {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                    ".build/torture-failures")
            let target = root.appendingPathComponent("\(seed)-\(round)").path
            let files = FileManager.default
            try? files.removeItem(atPath: target)
            guard let walk = files.enumerator(atPath: harness.root) else { return nil }
            do {
                try files.createDirectory(atPath: target, withIntermediateDirectories: true)
                // Regular files and directories only: the notify socket cannot be copied.
                while let relative = walk.nextObject() as? String {
                    let source = harness.root + "/" + relative
                    let type = (try? files.attributesOfItem(atPath: source))?[.type] as? FileAttributeType
                    if type == .typeDirectory {
                        try files.createDirectory(atPath: target + "/" + relative, withIntermediateDirectories: true)
                    } else if type == .typeRegular {
                        try files.copyItem(atPath: source, toPath: target + "/" + relative)
                    }
                }
                return target
            } catch {
                return nil
            }
        }

        /// Why the state a start would serve cannot be read.
        struct ServedError: Error, CustomStringConvertible {
            var description: String
        }

        func names(where predicate: (String) -> Bool) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: harness.stateDirectory)) ?? []).filter(predicate)
        }

        /// Problems with the state directory after a start: temporary files, quarantined copies, too many backups.
        func directoryProblems() -> [String] {
            var problems: [String] = []
            // Only the leftovers count: a start that replayed changes snapshots them after the debounce, and that
            // save's own temporary file may be there while it runs.
            let temporary = names { leftoverTemporaryFiles.contains($0) }
            if !temporary.isEmpty { problems.append("temporary files a kill left, after the start: \(temporary)") }
            let corrupt = names { $0.contains(".corrupt-") }
            if !corrupt.isEmpty { problems.append("a state file was quarantined: \(corrupt)") }
            let backups = names { $0.hasSuffix(".bak") }
            if backups.count > backupsKept { problems.append("\(backups.count) backups > \(backupsKept): \(backups)") }
            return problems
        }
    }

    @Test func sigkillAtRandomInstantsLosesNoAcknowledgedChange() async throws {
        let rounds = ReliabilitySummary.rounds("WSD_TORTURE_KILL_ROUNDS", default: 100)
        let seed = Self.seed
        var random = SplitMix64(seed: seed)
        let world = try World()
        let started = ContinuousClock.now
        var failedRounds = 0
        var durableChecked = 0
        var acknowledgedChecked = 0
        for round in 0..<rounds {
            var problems: [String] = []
            let (process, ready) = try await world.start(round: round)
            if !ready {
                problems.append("round \(round): the file did not load: \(process.output.suffix(2000))")
            }
            problems += world.directoryProblems().map { "round \(round): \($0)" }
            let beforeReady = round % 10 == 3
            let clients = TortureClients(socketPath: world.harness.socketPath, round: round)
            let load = Task { await clients.run(count: Self.clients) }
            // Most rounds kill under load; every tenth kills as soon as it can, a start-up of its own.
            let delay = beforeReady ? UInt64.random(in: 0...20, using: &random) : .random(in: 20...400, using: &random)
            try await Task.sleep(for: .milliseconds(delay))
            process.send(SIGKILL)
            _ = await process.waitForExit()
            clients.stop()
            await load.value
            let acknowledged = clients.snapshot
            // The change journal's promise: a kill loses no acknowledged change, durable or not.
            switch world.namesServed() {
            case .success(let served):
                let missing = acknowledged.all.subtracting(served.names)
                if !missing.isEmpty {
                    problems.append("round \(round): acknowledged changes lost: \(missing.sorted())")
                }
                durableChecked += acknowledged.durable.count
                acknowledgedChecked += acknowledged.all.count
            case .failure(let error):
                let kept = world.keepForDiagnosis(seed: seed, round: round)
                problems.append(
                    "round \(round): the state file and its journal do not load after SIGKILL: \(error)"
                        + (kept.map { " (the state directory and the logs are kept in \($0))" } ?? ""))
            }
            if !problems.isEmpty {
                failedRounds += 1
                Issue.record("seed \(seed): \(problems.joined(separator: "; "))")
            }
        }
        // A last start: the file still loads.
        let (last, ready) = try await world.start(round: rounds)
        #expect(ready, "seed \(seed): the final start failed: \(last.output.suffix(2000))")
        #expect(world.directoryProblems().isEmpty, "\(world.directoryProblems())")
        last.send(SIGTERM)
        #expect(await last.waitForExit() == 0)
        #expect(durableChecked > rounds, "too few durable acknowledgements to prove anything: \(durableChecked)")
        ReliabilitySummary.record(
            "SIGKILL torture, 16 clients (\(acknowledgedChecked) acks checked, \(durableChecked) durable)",
            rounds: rounds,
            failures: failedRounds, duration: ContinuousClock.now - started)
    }

    /// How a SIGTERM round stops the daemon.
    enum Stop: CaseIterable {
        /// One SIGTERM under load (a save is in flight most of the time).
        case underLoad
        /// Two SIGTERMs in a row.
        case twice
        /// SIGTERM during start-up, before READY=1.
        case beforeReady
    }

    /// Whether `pid` catches or ignores SIGTERM (`SigCgt`/`SigIgn` in /proc/PID/status): its own code runs.
    static func handlesSIGTERM(_ pid: pid_t) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
        let bit: UInt64 = 1 << (UInt64(SIGTERM) - 1)
        return status.split(separator: "\n").contains { line in
            guard line.hasPrefix("SigCgt:") || line.hasPrefix("SigIgn:"),
                let mask = UInt64(line.split(separator: "\t").last ?? "", radix: 16)
            else { return false }
            return mask & bit != 0
        }
    }

    @Test func sigtermAtRandomInstantsSavesEveryAcknowledgedChange() async throws {
        let rounds = ReliabilitySummary.rounds("WSD_TORTURE_TERM_ROUNDS", default: 30)
        let seed = Self.seed
        var random = SplitMix64(seed: seed)
        let world = try World()
        let started = ContinuousClock.now
        var failedRounds = 0
        var acknowledgedChecked = 0
        var readyBeforeStop = 0
        for round in 0..<rounds {
            var problems: [String] = []
            let stop = Stop.allCases[round % Stop.allCases.count]
            let process: RunningProcess
            var clients: TortureClients?
            var load: Task<Void, Never>?
            if stop == .beforeReady {
                let before = world.readyCount()
                process = try world.harness.start(output: "round-\(round).log")
                // From the moment the binary handles SIGTERM (its load-time handler, then its signal sources), not
                // earlier: a SIGTERM during exec, before any of its code runs, ends it by the default action.
                if await !eventually(timeout: .seconds(10), { Self.handlesSIGTERM(process.pid) }) {
                    problems.append("round \(round): the binary never handled SIGTERM")
                }
                // Time under test: a stop at a random instant of the start.
                try await Task.sleep(for: .milliseconds(UInt64.random(in: 0...40, using: &random)))
                if world.readyCount() > before { readyBeforeStop += 1 }
                process.send(SIGTERM)
            } else {
                let (started, ready) = try await world.start(round: round)
                process = started
                if !ready { problems.append("round \(round): the file did not load: \(process.output.suffix(2000))") }
                problems += world.directoryProblems().map { "round \(round): \($0)" }
                let running = TortureClients(socketPath: world.harness.socketPath, round: round)
                clients = running
                load = Task { await running.run(count: Self.clients) }
                // Time under test: a stop at a random instant under load.
                try await Task.sleep(for: .milliseconds(UInt64.random(in: 20...400, using: &random)))
                process.send(SIGTERM)
                if stop == .twice {
                    // Time under test: the second SIGTERM at a random instant after the first.
                    try await Task.sleep(for: .milliseconds(UInt64.random(in: 0...5, using: &random)))
                    process.send(SIGTERM)
                }
            }
            let status = await process.waitForExit()
            clients?.stop()
            await load?.value
            if status != 0 {
                problems.append(
                    "round \(round) (\(stop)): exit \(status.map(String.init) ?? "none"): \(process.output.suffix(2000))"
                )
            }
            // A clean stop leaves the whole state in the file and no change in the journal.
            if status == 0, case .success(let served) = world.namesServed(), served.journaled > 0 {
                let journaled = served.journaled
                problems.append("round \(round): the journal still holds \(journaled) change(s) after the stop")
            }
            if let acknowledged = clients?.snapshot {
                let onDisk = world.namesOnDisk() ?? []
                let missing = acknowledged.all.subtracting(onDisk)
                if !missing.isEmpty {
                    problems.append("round \(round): acknowledged changes lost: \(missing.sorted())")
                }
                acknowledgedChecked += acknowledged.all.count
            }
            if !problems.isEmpty {
                failedRounds += 1
                Issue.record("seed \(seed): \(problems.joined(separator: "; "))")
            }
        }
        #expect(acknowledgedChecked > rounds, "too few acknowledgements to prove anything: \(acknowledgedChecked)")
        let startUpRounds = (0..<rounds).filter { Stop.allCases[$0 % Stop.allCases.count] == .beforeReady }.count
        #expect(
            readyBeforeStop < startUpRounds || startUpRounds == 0,
            "every start-up round was READY before its SIGTERM: none tested a stop during start-up")
        ReliabilitySummary.record(
            "SIGTERM torture, 16 clients (\(acknowledgedChecked) acks checked)", rounds: rounds, failures: failedRounds,
            duration: ContinuousClock.now - started)
    }
}
