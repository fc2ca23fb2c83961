import WorkspaceModel

/// What happened, with its fields: one case per event `type` of `GET /v1/events` (docs/api.md, "Events").
public enum WorkspaceEventKind: Sendable, Equatable {
    /// `subscribed`: the first event of a stream; changes after `revision` of `lineage` follow as `change`
    /// events. When the stream resumes (`?since=`), `revision` is the one it resumes after, and the missed changes
    /// follow first.
    case subscribed(revision: UInt64, lineage: String)
    /// `reset`: the first event of a stream asked to resume (`?since=`) from a state whose changes cannot be
    /// replayed (another lineage, or changes no longer held); the reader must read the workspace again. Changes
    /// after `revision` of `lineage` follow. `reason` says why.
    case reset(revision: UInt64, lineage: String, reason: String)
    /// `change`: a change was applied (in memory) and got `revision`. `operation` names it (`project.create`,
    /// ``APIRoute/changeOperation``); `id` is the record it created, changed or removed, when there is one.
    case change(revision: UInt64, operation: String, id: WorkspaceID?)
    /// `save_durable`: a save made `revision` durable (fsynced with its directory).
    case saveDurable(revision: UInt64, milliseconds: Double, bytes: Int)
    /// `save_failed`: a save failed; the daemon retries in `retryInMilliseconds` (`nil` once it is stopping).
    case saveFailed(error: String, consecutiveFailures: Int, retryInMilliseconds: Double?)
    /// `save_recovered`: a save succeeded after `failures` failed ones (it follows that save's `save_durable`).
    case saveRecovered(revision: UInt64, failures: Int)
    /// `config_reloaded`: the configuration was read again (SIGHUP) and applied.
    case configReloaded(logLevel: String)
    /// `stopping`: the daemon received `signal` and stops; the final save's events, if any, follow, then the
    /// stream ends.
    case stopping(signal: Int32)
    /// `lagged`: this reader fell behind and `missed` events were dropped for it (the oldest it had not read).
    case lagged(missed: Int)
    /// An event type this release does not know (from a newer daemon); its fields are not decoded.
    case unknown(type: String)

    /// The `type` on the wire: `change`, `save_durable`, ….
    public var type: String {
        switch self {
        case .subscribed: return "subscribed"
        case .reset: return "reset"
        case .change: return "change"
        case .saveDurable: return "save_durable"
        case .saveFailed: return "save_failed"
        case .saveRecovered: return "save_recovered"
        case .configReloaded: return "config_reloaded"
        case .stopping: return "stopping"
        case .lagged: return "lagged"
        case .unknown(let type): return type
        }
    }
}
