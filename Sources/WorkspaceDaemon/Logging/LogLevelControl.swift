import Logging
import Synchronization

/// The daemon's log level, changeable at run time (a reload with a new `logLevel` takes effect at once for
/// every logger, including ones made before the reload).
package final class LogLevelControl: Sendable {
    private let level: Mutex<Logger.Level>

    /// A control starting at `level`.
    package init(_ level: Logger.Level) {
        self.level = Mutex(level)
    }

    /// The current level.
    package var current: Logger.Level {
        get { level.withLock { $0 } }
        set { level.withLock { $0 = newValue } }
    }
}

/// Wraps a handler so that its level follows the shared ``LogLevelControl`` unless this logger's own level was
/// set.
///
/// swift-log's `LogHandler` contract: setting `logLevel` on one `Logger` changes that logger (and its copies made
/// afterwards) only, never every logger. So a level set here is this handler's own override; the shared control
/// (what a reload changes) applies to every logger that has none.
package struct LevelControlledLogHandler<Upstream: LogHandler>: LogHandler {
    private var upstream: Upstream
    private let control: LogLevelControl
    private var override: Logger.Level?

    /// Wraps `upstream`, reading the level from `control`.
    package init(_ upstream: Upstream, control: LogLevelControl) {
        self.upstream = upstream
        self.control = control
    }

    /// This logger's level: its own once set, else the shared one.
    package var logLevel: Logger.Level {
        get { override ?? control.current }
        set { override = newValue }
    }

    /// The upstream's metadata.
    package var metadata: Logger.Metadata {
        get { upstream.metadata }
        set { upstream.metadata = newValue }
    }

    /// The upstream's metadata provider.
    package var metadataProvider: Logger.MetadataProvider? {
        get { upstream.metadataProvider }
        set { upstream.metadataProvider = newValue }
    }

    /// One metadata value of the upstream.
    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { upstream[metadataKey: key] }
        set { upstream[metadataKey: key] = newValue }
    }

    /// Passes the event on when its level is at or above this logger's level.
    package func log(event: LogEvent) {
        guard event.level >= logLevel else { return }
        upstream.log(event: event)
    }
}
