import Logging
import Synchronization

/// The daemon's log level, changeable at run time (a reload with a new `logLevel` takes effect at once for
/// every logger, including ones made before the reload).
public final class LogLevelControl: Sendable {
    private let level: Mutex<Logger.Level>

    /// A control starting at `level`.
    public init(_ level: Logger.Level) {
        self.level = Mutex(level)
    }

    /// The current level.
    public var current: Logger.Level {
        get { level.withLock { $0 } }
        set { level.withLock { $0 = newValue } }
    }
}

/// Wraps a handler so that its level is always the shared ``LogLevelControl``'s.
public struct LevelControlledLogHandler<Upstream: LogHandler>: LogHandler {
    private var upstream: Upstream
    private let control: LogLevelControl

    /// Wraps `upstream`, reading the level from `control`.
    public init(_ upstream: Upstream, control: LogLevelControl) {
        self.upstream = upstream
        self.control = control
    }

    /// The shared level; setting it changes it for every logger.
    public var logLevel: Logger.Level {
        get { control.current }
        set { control.current = newValue }
    }

    /// The upstream's metadata.
    public var metadata: Logger.Metadata {
        get { upstream.metadata }
        set { upstream.metadata = newValue }
    }

    /// The upstream's metadata provider.
    public var metadataProvider: Logger.MetadataProvider? {
        get { upstream.metadataProvider }
        set { upstream.metadataProvider = newValue }
    }

    /// One metadata value of the upstream.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { upstream[metadataKey: key] }
        set { upstream[metadataKey: key] = newValue }
    }

    /// Passes the event on when its level is at or above the shared level.
    public func log(event: LogEvent) {
        guard event.level >= control.current else { return }
        upstream.log(event: event)
    }
}
