/// The process at the other end of a Unix socket connection, as the kernel recorded it when it connected
/// (`SO_PEERCRED`).
public struct PeerCredentials: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The peer's process id.
    public var pid: Int32
    /// The peer's effective user id.
    public var uid: UInt32
    /// The peer's effective group id.
    public var gid: UInt32

    /// Creates credentials from their three ids.
    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    /// What a request on a TCP connection (``HTTPServerBinding/tcp(host:port:)``) carries: no process, and the
    /// user and group ids `(uid_t) -1` and `(gid_t) -1`, which no account has, so no access policy grants it
    /// anything by id.
    public static let unknown = PeerCredentials(pid: 0, uid: UInt32.max, gid: UInt32.max)

    /// "pid 12 uid 1000 gid 1000".
    public var description: String { "pid \(pid) uid \(uid) gid \(gid)" }
}
