import Glibc

/// Looks up users and groups in the system databases (NSS).
package enum AccountLookup {
    /// The uid of the user `name`, if there is one.
    package static func userID(_ name: String) -> UInt32? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getpwnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return entry.pw_uid
    }

    /// The gid of the group `name`, if there is one.
    package static func groupID(_ name: String) -> UInt32? {
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getgrnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return entry.gr_gid
    }

    /// The groups of user `uid` (primary and supplementary), or just `primary` when the user is unknown.
    package static func groups(ofUser uid: UInt32, primary: UInt32) -> Set<UInt32> {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name
        else { return [primary] }
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(name, primary, &groups, &count) < 0 {
            groups = [gid_t](repeating: 0, count: Int(count))
            _ = getgrouplist(name, primary, &groups, &count)
        }
        return Set(groups.prefix(Int(max(count, 0)))).union([primary])
    }
}
