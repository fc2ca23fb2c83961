import Logging
import Systemd

/// The events the example logs with a journal `MESSAGE_ID`, so that `journalctl MESSAGE_ID=…` finds each one
/// whatever the wording of its message. Each id was minted once with `journalctl --new-id128`; they are API:
/// never change or reuse one.
enum ExampleEvent: String, CaseIterable {
    /// The state file was loaded (and migrated, when it was older).
    case loaded
    /// The flush on stop made every accepted change durable.
    case flushedOnStop
    /// The flush on stop failed.
    case flushFailed

    /// The event's `MESSAGE_ID`.
    var messageID: MessageID {
        switch self {
        case .loaded: MessageID("7f56a8f80fcb43a286bc723ec76542e8")!
        case .flushedOnStop: MessageID("5ed6ee6e7f4848e3a7aef2471a5c2e18")!
        case .flushFailed: MessageID("08a80d8e0fc040ccb61927c92e540951")!
        }
    }

    /// `extra` with the event's id added under `MessageID.metadataKey`.
    func metadata(_ extra: Logger.Metadata = [:]) -> Logger.Metadata {
        extra.merging(.messageID(messageID)) { _, id in id }
    }
}
