import Logging
import Systemd

/// The events the daemon logs with a journal `MESSAGE_ID`, so operators can select them
/// (`journalctl MESSAGE_ID=…`) and `journalctl -x` explains them from `systemd/workspaced.catalog`.
///
/// The ids are API: never change or reuse one. docs/logging.md lists them.
package enum DaemonEvent: String, CaseIterable, Sendable {
    /// The daemon is ready and serving.
    case started
    /// The state file was loaded at the current version.
    case loaded
    /// The state file was migrated from an older version.
    case migrated
    /// Loaded data was repaired.
    case repaired
    /// A state file that loaded starts a new lineage (no lineage stored, an unclean stop, a change since the
    /// last clean stop): ETags read before are refused.
    case lineageStarted
    /// The state file's loads kept never finishing (crashed, killed, out of memory, timed out): it was moved aside
    /// and the state came from the newest backup that loads, or started empty.
    case crashedLoad
    /// The start replayed changes a crash left in the change journal onto the loaded state.
    case journalReplayed
    /// The start did not replay (all of) the change journal: segments of another lineage, a gap, damage or a change
    /// that does not apply were kept aside, and the changes in them are not in the state.
    case journalKeptAside
    /// The change journal failed (an append or an fdatasync): changes are answered 503 until a snapshot is durable.
    case journalFailed
    /// The change journal works again after a failure: the snapshot it continues is durable.
    case journalResumed
    /// A file of the history (`workspace.json.history/`) failed its check at the start: the daemon serves, and
    /// only reads of the past that need the file fail.
    case historyDamaged
    /// A corrupt state file was moved aside.
    case quarantined
    /// After a corrupt state file was moved aside, the state came from the newest backup that loads instead of
    /// starting empty (`corruptFileFallback`).
    case restoredFromBackup
    /// A state file that did not load as it was was salvaged: records dropped, fields coerced or defaulted; the
    /// original kept.
    case salvaged
    /// The state file changed outside the daemon since its last save (the content checksum it records does not
    /// match, so a person edited it, say): it loaded as it is.
    case changedOutsideDaemon
    /// The state file is newer than this release can read; the daemon refuses to start.
    case refusedNewerFile
    /// A background save failed; the state stays dirty and will be retried.
    case saveFailed
    /// A save succeeded after failures.
    case saveRecovered
    /// The final flush on stop succeeded.
    case flushedOnStop
    /// The final flush on stop failed; the old file is intact.
    case flushFailed
    /// A reload applied a new configuration.
    case configReloaded
    /// A reload found a bad configuration and kept the old one.
    case configRejected
    /// The state of an earlier installation (`legacyStatePath`) was imported once; it may be removed.
    case legacyImported
    /// The legacy state file could not be imported (corrupt, newer, unreadable); the daemon started empty and
    /// the next start tries again.
    case legacyImportRefused
    /// The secret store cannot be used (missing or wrong key, unreadable, newer, missing file); token
    /// authentication is disabled, the workspace is served, the files are left as they are.
    case secretsDisabled
    /// The secrets key comes from the key file in the state directory (logged at every start, with how to move
    /// it to a systemd credential).
    case secretsKeyFile
    /// The first start: a new installation id and secret store were created.
    case installationCreated
    /// A request's bearer token was refused (401): wrong, unknown, revoked or malformed, or token authentication
    /// is disabled. Names the token's id, never its secret.
    case tokenRefused
    /// Root created an API token.
    case tokenCreated
    /// Root revoked an API token.
    case tokenRevoked
    /// A replication pass failed (the store down, slow, refusing): the daemon serves on, the lag grows, the next
    /// pass retries after a backoff.
    case replicaFailed
    /// Replication works again after failures; the replica caught up.
    case replicaRecovered
    /// Another installation holds the replica's lease: this daemon serves locally and replicates nothing.
    case replicaHeldElsewhere
    /// This daemon took the replica's lease and replicates.
    case replicaLeaseAcquired
    /// The replica is configured without encryption (`replica.encryption = "none"`): logged at every start.
    case replicaPlaintext
    /// A start without a state file restored it from the replica (`replica.restoreIfMissing`).
    case replicaRestored
    /// The local history reached `replica.localMaximumBytes` while holding files the replica lacks, and pruned the
    /// oldest of them anyway: the replica misses those changes.
    case replicaHoldExceeded
    /// The metrics could not be written to `metrics.textfile` (a missing or read-only directory): warned once, then
    /// retried at every interval.
    case metricsTextfileFailed
    /// `metrics.listen` could not be bound (the port is taken, the address is not this host's): the daemon serves
    /// without the listener.
    case metricsListenFailed
    /// The scrub read a backup, a history file or the replica and found it damaged (named in `SCRUB_PATH`).
    case scrubFoundDamage
    /// A scrub read every file a restore would start from and found each whole.
    case scrubPassed

    /// The event's journal `MESSAGE_ID`.
    package var messageID: MessageID {
        let hex: String
        switch self {
        case .started: hex = "4c50677cb1f4416f81dd6b9193f39b72"
        case .loaded: hex = "7c4b824ea566426e94dcd56b303609c8"
        case .migrated: hex = "59d40d6d030141028132def856c40c38"
        case .repaired: hex = "c267febe84f5476e924f47bade4f6a62"
        case .lineageStarted: hex = "041f00b801eb4365b61d0bd753c8f332"
        case .crashedLoad: hex = "922fbbb61724473cab120b3740fb12c2"
        case .journalReplayed: hex = "fe846471250743229f92ac63c19293cd"
        case .journalKeptAside: hex = "0ce4234e79b348d2b1446c48d32af558"
        case .journalFailed: hex = "4b2508af5fca490ba49988ec12de99c1"
        case .journalResumed: hex = "b32795a196614c46b4fe6c608a00b666"
        case .historyDamaged: hex = "a8b50a1e85c6412bb6f4bb5a1f8aca8b"
        case .quarantined: hex = "87da9888b6c248ff9d9caee4abe6b974"
        case .restoredFromBackup: hex = "b09537f355614952a348eaee12d21470"
        case .salvaged: hex = "77de2393ac96444ab4abfd745fd62bc3"
        case .changedOutsideDaemon: hex = "80d1cdb39f0843c598dee023f3597d1f"
        case .refusedNewerFile: hex = "edd1498be4804db3a040144b7fc11efc"
        case .saveFailed: hex = "37e65969d71a45258e581e55094950e1"
        case .saveRecovered: hex = "11f8c62f95ad46eb978a5387ea5548d1"
        case .flushedOnStop: hex = "4c6ff2170b2e4dd8801b4fbcd9e2521d"
        case .flushFailed: hex = "4986b4c04d374a58ace50117a4936ee0"
        case .configReloaded: hex = "164d67d348ec47018b454717a4015a33"
        case .configRejected: hex = "205a42ded1ec4c53baa63a3903d005dd"
        case .legacyImported: hex = "f1216d6d4c9b4532bd44cf186eddcd26"
        case .legacyImportRefused: hex = "ff9a4d05bbed4f21b2d9e7011c3cfc15"
        case .secretsDisabled: hex = "d79dab42d84b4ae5a2a80835da9d401b"
        case .secretsKeyFile: hex = "b01ccc4464f8495e84b74af7dd6a18fe"
        case .installationCreated: hex = "aad123a68ac643d1bfdd9d97a423d0e7"
        case .tokenRefused: hex = "84ea0680f77e4daf8486689b663a70bb"
        case .tokenCreated: hex = "a37b65a8a7cb4e669fe4a5f97af43a5a"
        case .tokenRevoked: hex = "6b9e306005dc49cd8145743a6484dbbf"
        case .replicaFailed: hex = "561c51a542a2495b96614455bca704d1"
        case .replicaRecovered: hex = "e064aebd79dc468d8badef730bbc453d"
        case .replicaHeldElsewhere: hex = "20ee40e857fa417890991a05cfe8c6d2"
        case .replicaLeaseAcquired: hex = "9e5a8e6e6ec14f6fb714e174fbd64e7a"
        case .replicaPlaintext: hex = "dd9116d382c94d01a0c602425b12730f"
        case .replicaRestored: hex = "c174f2bf0bb04422a33723cabf76f0d4"
        case .replicaHoldExceeded: hex = "06004e5657484ce594f350e95a0790ee"
        case .metricsTextfileFailed: hex = "4558f319b68441a4b2077a8523173c08"
        case .metricsListenFailed: hex = "4bed4724c374494fbad5ebcbdddb97cf"
        case .scrubFoundDamage: hex = "2cd06ff3d9a240b8894c36fa02c99fcd"
        case .scrubPassed: hex = "aae0e0b7cd0e4059a19a33b149c53113"
        }
        return MessageID(hex)!
    }

    /// Metadata carrying the event's id, merged with `extra`.
    package func metadata(_ extra: Logger.Metadata = [:]) -> Logger.Metadata {
        extra.merging(.messageID(messageID)) { _, id in id }
    }
}
