import Dispatch
import Foundation
import Logging
import StateStore
import Systemd

/// A service that counts its own starts in a versioned state file: the smallest complete use of StateStore under
/// systemd. Run it with `Type=notify` and `StateDirectory=`; outside systemd it keeps `starts.json` in the
/// current directory. SIGTERM or SIGINT flushes the state and exits. The `starts-example` executable calls
/// ``main()``.
package struct StartsExample {
    package static func main() {
        JournalLogging(configuration: JournalLoggingConfiguration(identifier: "starts-example")).bootstrap()
        let logger = Logger(label: "starts-example")
        let notifier = LibsystemdNotifier()
        do {
            let state = try openState(logger: logger)
            flushOnStop(state, logger: logger, notifier: notifier)
            let count = try state.apply { starts in
                starts.starts += 1
                starts.lastStartedAt = Date()
                return starts.starts
            }.value
            try? notifier.ready(status: "start number \(count)")
            dispatchMain()
        } catch {
            logger.critical("cannot start: \(error)")
            try? notifier.status("cannot start: \(error)")
            exit(EXIT_FAILURE)
        }
    }

    /// Loads `starts.json` (migrating an older file) and hands it to a `PersistentState`, which saves every
    /// change in the background once the state has been quiet for the debounce (500 ms by default).
    static func openState(logger: Logger) throws -> PersistentState<Starts> {
        let directory = ServiceEnvironment.process().stateDirectory ?? FileManager.default.currentDirectoryPath
        let file = StateFile(path: directory + "/starts.json", schema: try StartsSchema.make())
        let loaded = try file.load()
        logger.notice(
            "\(loaded.report.summary)",
            metadata: ExampleEvent.loaded.metadata([
                "state_path": "\(file.path)", "source": "\(loaded.report.source.rawValue)",
            ]))
        return PersistentState(
            file: file, loaded: loaded,
            observer: { event in
                if case .saveFailed(let error, _, _) = event { logger.error("\(error)") }
            })
    }

    /// On SIGTERM (systemd's stop) or SIGINT (Ctrl-C): refuse further changes, save what is not on disk yet, and
    /// exit (status 0, or 74 when the save failed). Installed before the first change.
    static func flushOnStop(
        _ state: PersistentState<Starts>, logger: Logger, notifier: some ServiceNotifier
    ) {
        state.flushOnStop { event in
            switch event {
            case .stopping:
                try? notifier.stopping(status: "flushing")
            case .flushed(_, let revision):
                logger.notice(
                    "flushed on stop: revision \(revision) is on disk", metadata: ExampleEvent.flushedOnStop.metadata())
            case .flushFailed(_, let error):
                logger.error("flush on stop failed: \(error)", metadata: ExampleEvent.flushFailed.metadata())
            }
        }
    }
}
