import Glibc
import NIOCore

extension PeerCredentials {
    /// Reads `SO_PEERCRED` of a connected Unix socket channel once.
    ///
    /// Glibc's `struct ucred` is only visible with `_GNU_SOURCE`, which Swift's Glibc module does not define;
    /// ``RawPeerCredentials`` mirrors it.
    static func read(from channel: any Channel) -> EventLoopFuture<PeerCredentials> {
        guard let provider = channel as? any SocketOptionProvider else {
            return channel.eventLoop.makeFailedFuture(PeerCredentialsUnavailable())
        }
        let raw: EventLoopFuture<RawPeerCredentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        return raw.map { PeerCredentials(pid: $0.pid, uid: $0.uid, gid: $0.gid) }
    }
}

/// Glibc's `struct ucred { pid_t pid; uid_t uid; gid_t gid; }`: three 32-bit fields in declaration order, 12 bytes.
struct RawPeerCredentials: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}

/// The channel is not a socket whose options can be read.
struct PeerCredentialsUnavailable: Error {}
