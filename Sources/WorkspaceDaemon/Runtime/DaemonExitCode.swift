/// The daemon's exit statuses (sysexits.h), chosen so systemd's `RestartPreventExitStatus=65 75 78` stops
/// restarting when a restart cannot help.
public enum DaemonExitCode: Int32, Sendable {
    /// Clean stop: every accepted change is on disk.
    case success = 0
    /// The state file is corrupt and the policy is `refuse` (`EX_DATAERR`); the file was not changed.
    case corruptStateFile = 65
    /// The state directory cannot be created, or another process holds the state lock (`EX_CANTCREAT`).
    case cannotCreate = 73
    /// The state could not be read, or the final flush failed (`EX_IOERR`); the old file is intact.
    case ioError = 74
    /// The state file comes from a newer release that this one cannot read (`EX_TEMPFAIL`); it was not changed.
    case newerStateFile = 75
    /// The configuration is invalid (`EX_CONFIG`).
    case configuration = 78
}
