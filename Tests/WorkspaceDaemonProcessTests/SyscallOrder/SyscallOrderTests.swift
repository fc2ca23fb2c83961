import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Whether strace is there to trace the daemon with.
private let straceIsInstalled = FileManager.default.isExecutableFile(atPath: "/usr/bin/strace")

/// Issue 15, item 3: the shipped daemon's system calls, traced with strace, on every write path that exists
/// today (save after a migration with its backup, durable change, quarantine, salvage, legacy import, the flush
/// on SIGTERM). Every rename into the state directory has its temporary file fsynced after the last write and
/// before the rename, and the directory fsynced after it; nothing is acknowledged (READY=1, a durable answer,
/// the exit) before that directory fsync; a copy of the original (backup, quarantine, salvage) is in place
/// before the original is replaced or removed.
@Suite(
    "Syscall order of every write path (strace)", .serialized,
    .enabled(if: straceIsInstalled, "strace is not installed (make deps installs it)"))
struct SyscallOrderTests {
    static let tracedCalls = [
        "openat", "write", "writev", "pwrite64", "fsync", "fdatasync", "rename", "renameat", "renameat2", "link",
        "linkat", "unlink", "unlinkat", "sendmsg", "sendto", "exit_group",
    ].joined(separator: ",")

    /// Runs the daemon under strace until it is ready, runs `body`, stops it with SIGTERM and returns the trace.
    func traced(
        _ harness: TestDaemon, _ extra: [String] = [], _ body: (TestDaemon) async throws -> Void = { _ in }
    ) async throws -> SyscallTrace {
        let log = harness.root + "/strace.log"
        let strace = try harness.start(
            extra,
            launcher: [
                "/usr/bin/strace", "-f", "-qq", "-yy", "-s", "4096", "-o", log, "-e", "trace=" + Self.tracedCalls, "--",
            ])
        #expect(await harness.becomesReady(), "\(strace.output)")
        try await body(harness)
        let daemon = try #require(Self.child(of: strace.pid), "no daemon process under strace")
        kill(daemon, SIGTERM)
        #expect(await strace.waitForExit() == 0, "\(strace.output)")
        let trace = SyscallTrace(log: try String(contentsOfFile: log, encoding: .utf8))
        // Every replace but the naming of a journal segment, which holds no change yet: its records are made
        // durable by the fdatasync of a durable change (aDurableChangeIsAnsweredOnlyOnceTheJournalIsSynced); and
        // the move of a compacted segment into the history, which is not a replace of content: its bytes are
        // synced (syncfs) before the manifest that records their checksum is written.
        for replace in trace.replaces(in: harness.stateDirectory)
        where !replace.target.hasPrefix(harness.statePath + ".journal.")
            && !replace.target.hasPrefix(harness.statePath + ".history/journal.")
        {
            #expect(replace.problem == nil, "\(replace): \(replace.problem ?? "")")
        }
        return trace
    }

    /// The first child of `pid` (the traced daemon of an strace process).
    static func child(of pid: pid_t) -> pid_t? {
        let children = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)
        return children?.split(separator: " ").first.flatMap { pid_t($0) }
    }

    /// Expects `replace` to follow the protocol and to be durable (its directory fsync returned) before `ack`.
    func expectDurable(
        _ replace: SyscallTrace.Replace, before ack: TracedCall?, _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(replace.problem == nil, "\(replace): \(replace.problem ?? "")", sourceLocation: sourceLocation)
        guard let ack else {
            Issue.record("no \(what) in the trace", sourceLocation: sourceLocation)
            return
        }
        #expect(
            (replace.durableFrom ?? .max) < ack.start,
            "\(what) (\(ack)) came before \(replace) was durable (\(replace.directoryFsync?.description ?? "none"))",
            sourceLocation: sourceLocation)
    }

    @Test func aMigratedFileIsBackedUpThenReplacedDurablyBeforeReady() async throws {
        let harness = try TestDaemon()
        try harness.writeState(try WorkspaceFixtures.data("versions/v1.json"))
        let trace = try await traced(harness)
        let replace = try #require(
            trace.replaces(in: harness.stateDirectory).first { $0.target == harness.statePath },
            "the migrated state was never written")
        let backup = try #require(
            trace.links(to: harness.statePath + ".v1.bak").first, "the original was not linked to its backup")
        #expect(backup.end < replace.rename.start, "the backup (\(backup)) came after \(replace)")
        expectDurable(replace, before: trace.ready, "READY=1")
    }

    @Test func aDurableChangeIsAnsweredOnlyOnceTheJournalIsSynced() async throws {
        let harness = try TestDaemon()
        let trace = try await traced(harness) { harness in
            let created = try await curl(
                harness.socketPath, "POST", "/v1/favorites?durable=true", body: #"{"name":"Docs","path":"/docs"}"#,
                headers: ["Content-Type: application/json"])
            #expect(created.status == 201, "\(created.body)")
        }
        let answer = try #require(trace.response(201), "the 201 answer is not in the trace")
        let journal = harness.statePath + ".journal."
        let append = try #require(
            trace.calls.last {
                $0.name == "write" && ($0.descriptorPath?.hasPrefix(journal) ?? false) && $0.text.contains("/docs")
                    && $0.start < answer.start
            }, "the change was answered before it was appended to the journal")
        let sync = trace.calls.first {
            ["fsync", "fdatasync"].contains($0.name) && $0.descriptorPath == append.descriptorPath && $0.succeeded
                && $0.start > append.end
        }
        #expect(
            (sync?.end ?? .max) < answer.start,
            "the answer (\(answer)) came before the journal's sync (\(sync?.description ?? "none"))")
        // The segment's name is durable too: the directory was fsynced after the rename that named it.
        let named = try #require(
            trace.calls.last {
                ["rename", "renameat", "renameat2"].contains($0.name) && $0.succeeded
                    && $0.strings.last == append.descriptorPath && $0.start < append.start
            }, "the segment was not named by a rename")
        let directory = trace.directoryFsync(of: harness.stateDirectory, after: named.end)
        #expect((directory?.end ?? .max) < answer.start, "the segment's name was not durable before the answer")
        #expect(
            !trace.replaces(in: harness.stateDirectory).contains {
                $0.target == harness.statePath && $0.rename.start < answer.start
            }, "a durable change costs the change, not a snapshot of the state")
    }

    @Test func theFlushOnSIGTERMIsDurableBeforeTheExit() async throws {
        let harness = try TestDaemon()
        let trace = try await traced(harness) { harness in
            let created = try await curl(
                harness.socketPath, "POST", "/v1/favorites", body: #"{"name":"Docs","path":"/docs"}"#,
                headers: ["Content-Type: application/json"])
            #expect(created.status == 201, "\(created.body)")
        }
        let replace = try #require(
            trace.replaces(in: harness.stateDirectory).last { $0.target == harness.statePath },
            "the change was never written")
        expectDurable(replace, before: trace.exit, "exit_group")
    }

    @Test(arguments: ["quarantine", "salvage"])
    func theOriginalOfACorruptFileIsKeptDurablyBeforeReadyAndBeforeItIsReplaced(policy: String) async throws {
        let harness = try TestDaemon()
        let original =
            policy == "quarantine"
            ? Data("not JSON".utf8) : try WorkspaceFixtures.data("salvage/v2-pane-viewmode-string.json")
        try harness.writeState(original)
        let trace = try await traced(harness, ["--corrupt-file-policy", policy])
        let copy = try #require(
            trace.links(to: harness.statePath + ".corrupt-").first, "the original was not linked aside")
        let durable = try #require(
            trace.directoryFsync(of: harness.stateDirectory, after: copy.end), "the copy was never made durable")
        let ready = try #require(trace.ready, "READY=1 is not in the trace")
        #expect(durable.end < ready.start, "READY=1 (\(ready)) came before the copy was durable (\(durable))")
        let removal = trace.calls.first { $0.name.hasPrefix("unlink") && $0.strings == [harness.statePath] }
        let replace = trace.replaces(in: harness.stateDirectory).first { $0.target == harness.statePath }
        if policy == "quarantine" {
            let removal = try #require(removal, "the quarantined original was never removed")
            #expect(durable.end < removal.start, "the original was removed (\(removal)) before its copy was durable")
        } else {
            let replace = try #require(replace, "the salvaged state was never written")
            #expect(durable.end < replace.rename.start, "\(replace) came before the copy was durable")
            expectDurable(replace, before: ready, "READY=1")
        }
    }

    @Test func aLegacyImportIsDurableBeforeReady() async throws {
        let harness = try TestDaemon()
        let legacy = harness.root + "/legacy/state.json"
        try FileManager.default.createDirectory(atPath: harness.root + "/legacy", withIntermediateDirectories: true)
        try WorkspaceFixtures.data("versions/v1.json").write(to: URL(fileURLWithPath: legacy))
        let trace = try await traced(harness, ["--legacy-state-path", legacy])
        let replace = try #require(
            trace.replaces(in: harness.stateDirectory).first { $0.target == harness.statePath },
            "the imported state was never written")
        expectDurable(replace, before: trace.ready, "READY=1")
    }
}
