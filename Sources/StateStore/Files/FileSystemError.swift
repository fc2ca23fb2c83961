import Glibc

/// A failed file-system call, with the call, the path and the error number.
public struct FileSystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The call that failed (`open`, `write`, `fsync`, `close`, `rename`, `link`, …).
    public var operation: String
    /// The path it acted on.
    public var path: String
    /// The error number (`errno`) it reported.
    public var errno: Int32
    /// The file type (`st_mode & S_IFMT`) of a file refused for not being a regular file
    /// (``notARegularFile(path:mode:)``); `nil` otherwise.
    public var refusedFileType: mode_t?

    /// A failure of `operation` on `path` with `errno`.
    public init(operation: String, path: String, errno: Int32) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// A read refused because `path` is a directory, a FIFO, a socket or a device (`mode` from `fstat`): reading
    /// a FIFO would wait for a writer, and none of them holds a state. `EISDIR` for a directory, `EINVAL` for the
    /// rest.
    public static func notARegularFile(path: String, mode: mode_t) -> FileSystemError {
        var error = FileSystemError(
            operation: "open", path: path, errno: mode & S_IFMT == S_IFDIR ? EISDIR : EINVAL)
        error.refusedFileType = mode & S_IFMT
        return error
    }

    /// `operation path: strerror(errno)`, or `operation path: a FIFO, not a regular file` for a refused file type.
    public var description: String {
        let cause = refusedFileType.map { "\(Self.kind($0)), not a regular file" } ?? String(cString: strerror(errno))
        return "\(operation) \(path): \(cause) (errno \(errno))"
    }

    /// `a directory`, `a FIFO`, … for a file type.
    private static func kind(_ type: mode_t) -> String {
        switch type {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        default: "a file of type \(String(type, radix: 8))"
        }
    }
}
