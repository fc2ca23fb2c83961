import Glibc

/// The socket file a server binds: refuses what it must not replace, clears stale sockets, sets the mode and
/// removes only the file it created.
struct UnixSocketFile: Sendable, Equatable {
    let path: String
    /// Device and inode after bind, so shutdown never removes a file that replaced ours.
    private(set) var identity: (device: UInt64, inode: UInt64)?

    static func == (lhs: UnixSocketFile, rhs: UnixSocketFile) -> Bool {
        lhs.path == rhs.path && lhs.identity?.device == rhs.identity?.device
            && lhs.identity?.inode == rhs.identity?.inode
    }

    /// The longest path `sockaddr_un.sun_path` holds, without its terminating NUL.
    static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    init(path: String) throws(HTTPServerError) {
        let length = path.utf8.count
        guard length <= Self.maximumPathLength else { throw .socketPathTooLong(path: path, bytes: length) }
        self.path = path
    }

    /// Makes the path free for bind: nothing there, or a socket nobody listens on (removed).
    func clearStale() throws(HTTPServerError) {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            if errno == ENOENT { return }
            throw .socketFileFailed(path: path, operation: "lstat", errno: errno)
        }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw .pathOccupied(path: path, kind: Self.kind(of: status.st_mode))
        }
        switch Self.probe(path) {
        case 0: throw .addressInUse(path: path)
        case ECONNREFUSED:
            guard unlink(path) == 0 || errno == ENOENT else {
                throw .socketFileFailed(path: path, operation: "unlink stale socket", errno: errno)
            }
        case let code: throw .socketFileFailed(path: path, operation: "connect to probe", errno: code)
        }
    }

    /// After bind: sets the mode and records the identity.
    mutating func adopt(mode: UInt32) throws(HTTPServerError) {
        guard chmod(path, mode_t(mode)) == 0 else {
            throw .socketFileFailed(path: path, operation: "chmod", errno: errno)
        }
        var status = stat()
        guard lstat(path, &status) == 0 else { throw .socketFileFailed(path: path, operation: "lstat", errno: errno) }
        identity = (UInt64(status.st_dev), UInt64(status.st_ino))
    }

    /// Removes the socket file if it is still the one bound.
    func remove() {
        var status = stat()
        guard let identity, lstat(path, &status) == 0, UInt64(status.st_dev) == identity.device,
            UInt64(status.st_ino) == identity.inode
        else { return }
        unlink(path)
    }

    /// Connects a throwaway socket; 0 when something accepts, else the errno.
    private static func probe(_ path: String) -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return errno }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8)
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return result == 0 ? 0 : errno
    }

    private static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: return "a regular file"
        case S_IFDIR: return "a directory"
        case S_IFLNK: return "a symbolic link"
        case S_IFIFO: return "a FIFO"
        default: return "a special file"
        }
    }
}
