// A child process for the crash tests: it owns a notebook state through
// PersistentState and reports on stdout what it knows to be durable, so a parent can SIGKILL or SIGTERM it and
// compare the file with what was reported.
//
// Usage: StateStoreCrashTester PATH [--debounce-ms N] [--max-delay-ms N] [--flush-first] [--changes N]
//   --flush-first: apply one change and flush it first, as a service that has been running has saved before.
//   without --changes: apply changes as fast as possible until stopped; --changes N: apply N, then idle.
// Output, one line each, written unbuffered:
//   ready <base>       the SIGTERM source is installed and the state is loaded (stored revision <base>)
//   durable <r>        stored revision r is on disk (after the directory fsync)
//   accepted <r>       on SIGTERM: the state is closed and flushed; r is the last accepted stored revision
//   flush-failed <e>   on SIGTERM: the final flush failed (exit status 74)
// stderr gets how long each save took.
// The stored revision lives in the root's unknown fields under "crashTesterRevision" and grows by one with
// every change, so the file itself tells which change it holds.
import Dispatch
import Foundation
import StateStore
import StateStoreSample

// The SIGTERM source comes first: until it is registered, SIGTERM would kill the process without a flush.
let termination = StateOwner.installTerminationSources()

let options = CrashTesterOptions.parse(CommandLine.arguments)
do {
    let file = StateFile(path: options.path, schema: try NotebookSchema.make())
    let loaded = try file.load()
    let base = CrashTesterChange.storedRevision(of: loaded.model)
    // The engine's revisions continue from the file's (loaded.report.revision); this run's changes are the ones
    // after it, each of which bumps the stored revision by one.
    let first = loaded.report.revision
    let state = PersistentState(
        file: file, loaded: loaded,
        configuration: PersistenceConfiguration(debounce: options.debounce, maximumDelay: options.maximumDelay),
        observer: { event in
            guard case .saved(let revision, let duration, _) = event else { return }
            Output.line("durable \(base + revision - first)")
            Output.diagnostic("saved \(base + revision - first) in \(duration)")
        })
    StateOwner.flushOnStop(state, using: termination)
    if options.flushFirst {
        try state.apply(CrashTesterChange.apply)
        try state.flushSynchronously()
    }
    for _ in 0..<(options.changes ?? 0) { try state.apply(CrashTesterChange.apply) }
    Output.line("ready \(base)")
    if options.changes == nil {
        // Until stopped, or until the test process that started it is gone: a run killed midway (Ctrl-C, a
        // stopped stress run) would otherwise leave a tester changing state as fast as it can, a core each, for
        // good. An orphan's parent becomes init or a subreaper, so the parent's pid changes.
        let parent = getppid()
        var applied = 0
        while (try? state.apply(CrashTesterChange.apply)) != nil {
            applied += 1
            if applied % 1024 == 0 && getppid() != parent { exit(3) }
        }
    }
} catch {
    Output.line("error \(error)")
    exit(2)
}
while true { pause() }
