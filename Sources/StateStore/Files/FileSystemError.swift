import Glibc

/// A failed file-system call, with the call, the path and the error number.
public struct FileSystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The call that failed (`open`, `write`, `fsync`, `close`, `rename`, `link`, …).
    public var operation: String
    /// The path it acted on.
    public var path: String
    /// The error number (`errno`) it reported.
    public var errno: Int32

    /// A failure of `operation` on `path` with `errno`.
    public init(operation: String, path: String, errno: Int32) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// `operation path: strerror(errno)`.
    public var description: String {
        "\(operation) \(path): \(String(cString: strerror(errno))) (errno \(errno))"
    }
}
