/// The HTTP method of an operation of the control API (``APIRoute/method``): the contract's own type, so that it
/// names a method without a transport; the daemon and the client turn it into their HTTP library's method.
public enum APIMethod: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `GET`: a read.
    case get = "GET"
    /// `PUT`: sets a value as a whole.
    case put = "PUT"
    /// `POST`: creates a record or runs an action.
    case post = "POST"
    /// `PATCH`: changes some fields of a record.
    case patch = "PATCH"
    /// `DELETE`: removes a record.
    case delete = "DELETE"

    /// The method as HTTP writes it: `GET`.
    public var description: String { rawValue }
}
