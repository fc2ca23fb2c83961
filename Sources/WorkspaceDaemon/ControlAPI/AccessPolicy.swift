import Glibc
import UnixHTTP

/// Decides, from a connection's `SO_PEERCRED`, whether the peer may read or change the workspace.
///
/// Root and the daemon's own user may do both; the configured users and groups (a group matches the peer's
/// primary or supplementary groups) may read or change; everyone else is refused.
package struct AccessPolicy: Sendable {
    /// What a peer may do.
    package enum Grant: Sendable, Equatable, Comparable {
        /// Nothing.
        case none
        /// Read only.
        case read
        /// Read and change.
        case write

        /// Whether this grant allows a read (GET, HEAD) or, when `isRead` is false, a change.
        package func allows(isRead: Bool) -> Bool {
            self == .write || (self == .read && isRead)
        }
    }

    /// The configured users and groups.
    package let access: AccessConfiguration
    /// The daemon's own uid.
    package let ownUserID: UInt32
    let groupsOfUser: @Sendable (UInt32, UInt32) -> Set<UInt32>

    /// A policy for `access`; `groupsOfUser` (uid, primary gid) → all gids defaults to the system databases.
    package init(
        access: AccessConfiguration, ownUserID: UInt32 = getuid(),
        groupsOfUser: @escaping @Sendable (UInt32, UInt32) -> Set<UInt32> = AccountLookup.groups(ofUser:primary:)
    ) {
        self.access = access
        self.ownUserID = ownUserID
        self.groupsOfUser = groupsOfUser
    }

    /// What `peer` may do.
    package func grant(for peer: PeerCredentials) -> Grant {
        let uid = peer.uid
        if uid == 0 || uid == ownUserID || access.writeUsers.contains(uid) { return .write }
        let needsGroups = !access.writeGroups.isEmpty || !access.readGroups.isEmpty
        let groups = needsGroups ? groupsOfUser(uid, peer.gid) : []
        if !access.writeGroups.isDisjoint(with: groups) { return .write }
        if access.readUsers.contains(uid) || !access.readGroups.isDisjoint(with: groups) { return .read }
        return .none
    }
}
