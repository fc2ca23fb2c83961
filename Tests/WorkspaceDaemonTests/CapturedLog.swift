import Logging
import Synchronization
import WorkspaceDaemon

/// Every log entry, for assertions on what the daemon said (and never said).
final class CapturedLog: Sendable {
    struct Entry: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]

        /// The message and every metadata value, as the journal would get them.
        var everything: String { ([message] + metadata.map { "\($0.key)=\($0.value)" }).joined(separator: " ") }
    }

    let entries = Mutex<[Entry]>([])

    var all: [Entry] { entries.withLock { $0 } }

    var logger: Logger {
        Logger(label: "test") { _ in Handler(sink: self) }
    }

    /// The entries that carry `event`'s MESSAGE_ID.
    func entries(_ event: DaemonEvent) -> [Entry] {
        all.filter { $0.metadata["message-id"] == event.messageID.description }
    }

    func clear() { entries.withLock { $0.removeAll() } }

    struct Handler: LogHandler {
        let sink: CapturedLog
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            sink.entries.withLock {
                $0.append(
                    Entry(
                        level: event.level, message: "\(event.message)",
                        metadata: merged.mapValues { "\($0)" }))
            }
        }
    }
}
