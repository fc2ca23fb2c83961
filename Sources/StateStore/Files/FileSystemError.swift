import Glibc

/// A failed file-system call, with the call, the path and the error number.
public struct FileSystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The call that failed (`open`, `write`, `fsync`, `close`, `rename`, `link`, …).
    public var operation: String
    /// The path it acted on.
    public var path: String
    /// The error number (`errno`) it reported.
    public var errno: Int32
    /// What went wrong, when `strerror(errno)` would not say it (``notARegularFile(path:mode:)``).
    public var detail: String?
    /// The file type (`st_mode & S_IFMT`) of a file refused for not being a regular file; `nil` otherwise.
    public var refusedFileType: mode_t?

    /// A failure of `operation` on `path` with `errno`, and a `detail` where `strerror` is not enough.
    public init(operation: String, path: String, errno: Int32, detail: String? = nil) {
        self.operation = operation
        self.path = path
        self.errno = errno
        self.detail = detail
    }

    /// A read refused because `path` is a FIFO, a socket or a device (`mode` from `fstat`): reading a FIFO would
    /// wait for a writer, and none of them holds a state. `EISDIR` for a directory, `EINVAL` for the rest.
    public static func notARegularFile(path: String, mode: mode_t) -> FileSystemError {
        let kind: String
        switch mode & S_IFMT {
        case S_IFDIR: kind = "a directory"
        case S_IFIFO: kind = "a FIFO"
        case S_IFSOCK: kind = "a socket"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        default: kind = "a file of type \(String(mode & S_IFMT, radix: 8))"
        }
        var error = FileSystemError(
            operation: "open", path: path, errno: mode & S_IFMT == S_IFDIR ? EISDIR : EINVAL,
            detail: "\(kind), not a regular file")
        error.refusedFileType = mode & S_IFMT
        return error
    }

    /// `operation path: strerror(errno)`, or `operation path: detail` when there is one.
    public var description: String {
        "\(operation) \(path): \(detail ?? String(cString: strerror(errno))) (errno \(errno))"
    }
}
