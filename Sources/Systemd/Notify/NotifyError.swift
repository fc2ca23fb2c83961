/// A notification that could not be delivered to the service manager.
public enum NotifyError: Error, Equatable, CustomStringConvertible {
    /// `sd_notify` failed with `errno` (for example `ENOENT` when `NOTIFY_SOCKET` names a missing socket);
    /// `message` is the datagram that was not sent.
    case send(errno: Int32, message: String)
    /// Nothing to send: a notification needs at least one field.
    case empty

    /// A sentence that names the failed message and the reason.
    public var description: String {
        switch self {
        case .send(let errno, let message):
            return "sd_notify failed (errno \(errno)) for \"\(message.replacingNewlines())\""
        case .empty:
            return "sd_notify called without fields"
        }
    }
}

extension String {
    fileprivate func replacingNewlines() -> String {
        split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(separator: "\\n")
    }
}
