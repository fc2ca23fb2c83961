import Synchronization

/// A ``ServiceNotifier`` test double that records every datagram instead of sending it.
public final class RecordingNotifier: ServiceNotifier {
    private let state = Mutex<(messages: [[NotifyField]], failure: NotifyError?)>(([], nil))

    /// Creates an empty recorder.
    public init() {}

    /// Every datagram sent so far, oldest first.
    public var messages: [[NotifyField]] {
        state.withLock { $0.messages }
    }

    /// The datagrams as protocol text (`READY=1\nSTATUS=…`), oldest first.
    public var datagrams: [String] {
        messages.map(NotifyField.datagram)
    }

    /// Makes every following ``send(_:)`` throw `error` (or succeed again with `nil`), without recording.
    public func failSends(with error: NotifyError?) {
        state.withLock { $0.failure = error }
    }

    /// Records `fields`, or throws the error set by ``failSends(with:)``.
    public func send(_ fields: [NotifyField]) throws(NotifyError) {
        guard !fields.isEmpty else { throw .empty }
        let failure: NotifyError? = state.withLock { state in
            if let failure = state.failure { return failure }
            state.messages.append(fields)
            return nil
        }
        if let failure { throw failure }
    }
}
