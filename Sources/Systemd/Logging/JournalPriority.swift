import Logging

extension Logger.Level {
    /// The syslog priority journald stores in `PRIORITY` for this level.
    ///
    /// | swift-log  | priority |
    /// |------------|----------|
    /// | `trace`    | 7 debug  |
    /// | `debug`    | 7 debug  |
    /// | `info`     | 6 info   |
    /// | `notice`   | 5 notice |
    /// | `warning`  | 4 warning|
    /// | `error`    | 3 err    |
    /// | `critical` | 2 crit   |
    public var journalPriority: Int {
        switch self {
        case .trace, .debug: return 7
        case .info: return 6
        case .notice: return 5
        case .warning: return 4
        case .error: return 3
        case .critical: return 2
        }
    }
}
