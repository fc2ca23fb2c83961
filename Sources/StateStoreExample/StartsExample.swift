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
            let signals = flushOnStop(state, logger: logger, notifier: notifier)
            let count = try state.apply { starts in
                starts.starts += 1
                starts.lastStartedAt = Date()
                return starts.starts
            }.value
            try? notifier.ready(status: "start number \(count)")
            withExtendedLifetime(signals) { dispatchMain() }
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
    /// exit. The handler runs on a Dispatch queue, a plain thread where the flush may block. Returns once both
    /// sources are registered: a signal sent from then on reaches them.
    static func flushOnStop(
        _ state: PersistentState<Starts>, logger: Logger, notifier: some ServiceNotifier
    ) -> [any DispatchSourceSignal] {
        let queue = DispatchQueue(label: "starts-example.signals")
        let registered = DispatchGroup()
        let sources = [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)  // until its source is registered, the signal is ignored instead of fatal
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                try? notifier.stopping(status: "flushing")
                do {
                    try state.close()
                    logger.notice(
                        "flushed on stop: revision \(state.status.durableRevision) is on disk",
                        metadata: ExampleEvent.flushedOnStop.metadata())
                    exit(EXIT_SUCCESS)
                } catch {
                    logger.error("flush on stop failed: \(error)", metadata: ExampleEvent.flushFailed.metadata())
                    exit(74)  // EX_IOERR
                }
            }
            registered.enter()
            source.setRegistrationHandler { registered.leave() }
            source.resume()
            return source
        }
        registered.wait()
        return sources
    }
}
