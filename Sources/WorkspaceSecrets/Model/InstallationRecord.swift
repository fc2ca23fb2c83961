import FoundationEssentials
import StateModel
import StateStore

/// Which installation this is: an id minted at the first start, when that was, and which release did it.
///
/// Written once, never changed: it survives a reinstall (binaries, units and configuration removed, the state
/// directory kept) because it lives in the secret store and in `installation.json` next to it.
@StateModel
public struct InstallationRecord: Codable, Sendable, Equatable {
    /// The installation's id (read in any letter case, written in lower case).
    @StateCoder(LowercaseUUIDCoder.self) public var id: UUID
    /// When the daemon first started (whole seconds).
    public var firstStartedAt: Date
    /// The release that first started (`ControlAPI.daemonVersion` of that release).
    public var firstRelease: String
    /// Keys this version does not declare.
    public var unknownFields: UnknownFields

    /// A new installation: a random id, `now` cut to whole seconds, and `release`.
    public static func new(release: String, now: Date = Date()) -> InstallationRecord {
        InstallationRecord(
            id: UUID(), firstStartedAt: Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down)),
            firstRelease: release)
    }
}
