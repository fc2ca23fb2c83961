import Testing
import UnixHTTP
import WorkspaceDaemon

#if canImport(Glibc)
import Glibc
#endif

/// Who may read or change the workspace, decided from a peer's credentials, with the daemon's uid and the group
/// database replaced by fixed values.
@Suite("Access policy")
struct AccessPolicyTests {
    /// The daemon's uid in these tests (not root, so the two rules are told apart).
    static let daemonUID: UInt32 = 4242

    /// Supplementary groups by uid; every user is also in the primary group it is asked about, as with
    /// `getgrouplist`.
    static let supplementary: [UInt32: Set<UInt32>] = [1001: [500], 1002: [600, 700], 1003: [800]]

    static func policy(_ access: AccessConfiguration) -> AccessPolicy {
        AccessPolicy(access: access, ownUserID: daemonUID) { uid, primary in
            (supplementary[uid] ?? []).union([primary])
        }
    }

    static func peer(uid: UInt32, gid: UInt32? = nil) -> PeerCredentials {
        PeerCredentials(pid: 99, uid: uid, gid: gid ?? uid)
    }

    /// A policy whose group lookup must not run.
    static func policyWithoutGroupLookup(_ access: AccessConfiguration) -> AccessPolicy {
        AccessPolicy(access: access, ownUserID: daemonUID) { uid, _ in
            Issue.record("groups of uid \(uid) looked up")
            return []
        }
    }

    @Test func rootAndTheDaemonsOwnUserMayChangeWithNothingConfigured() {
        let policy = Self.policyWithoutGroupLookup(AccessConfiguration())
        #expect(policy.grant(for: Self.peer(uid: 0)) == .write)
        #expect(policy.grant(for: Self.peer(uid: Self.daemonUID)) == .write)
        #expect(policy.grant(for: Self.peer(uid: 1001)) == .none)
    }

    @Test func theDefaultOwnUserIsTheProcesssUID() {
        #expect(AccessPolicy(access: AccessConfiguration()).ownUserID == getuid())
    }

    @Test func listedUsersMayReadOrChange() {
        let policy = Self.policyWithoutGroupLookup(AccessConfiguration(readUsers: [1001], writeUsers: [1002]))
        #expect(policy.grant(for: Self.peer(uid: 1001)) == .read)
        #expect(policy.grant(for: Self.peer(uid: 1002)) == .write)
        #expect(policy.grant(for: Self.peer(uid: 1003)) == .none)
    }

    @Test func membersOfListedGroupsMayReadOrChangeThroughSupplementaryGroups() {
        let policy = Self.policy(AccessConfiguration(readGroups: [500], writeGroups: [700]))
        #expect(policy.grant(for: Self.peer(uid: 1001)) == .read)
        #expect(policy.grant(for: Self.peer(uid: 1002)) == .write)
        #expect(policy.grant(for: Self.peer(uid: 1003)) == .none)
    }

    @Test func thePeersPrimaryGroupCounts() {
        let policy = Self.policy(AccessConfiguration(readGroups: [30], writeGroups: [40]))
        #expect(policy.grant(for: Self.peer(uid: 1003, gid: 30)) == .read)
        #expect(policy.grant(for: Self.peer(uid: 1003, gid: 40)) == .write)
        #expect(policy.grant(for: Self.peer(uid: 1003, gid: 50)) == .none)
    }

    @Test func theSystemLookupCountsThePrimaryGroupOfAnUnknownUser() {
        let unknown: UInt32 = 3_999_999_001
        #expect(AccountLookup.groups(ofUser: unknown, primary: 31_337) == [31_337])
        let policy = AccessPolicy(access: AccessConfiguration(readGroups: [31_337]), ownUserID: Self.daemonUID)
        #expect(policy.grant(for: Self.peer(uid: unknown, gid: 31_337)) == .read)
        #expect(policy.grant(for: Self.peer(uid: unknown, gid: 31_338)) == .none)
    }

    @Test func aWriteGrantWinsOverARead() {
        let policy = Self.policy(AccessConfiguration(readUsers: [1002], readGroups: [600], writeGroups: [700]))
        #expect(policy.grant(for: Self.peer(uid: 1002)) == .write)
    }

    @Test func anUnknownUIDIsRefused() {
        let policy = Self.policy(
            AccessConfiguration(readUsers: [1001], readGroups: [500], writeUsers: [1002], writeGroups: [700]))
        #expect(policy.grant(for: Self.peer(uid: 65534)) == .none)
        #expect(policy.grant(for: Self.peer(uid: 3_999_999_002, gid: 3_999_999_002)) == .none)
    }
}
