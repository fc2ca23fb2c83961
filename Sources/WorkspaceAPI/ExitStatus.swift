/// Every exit status of `workspaced` (the daemon and its offline tools) and `workspacectl`, with its
/// `sysexits.h` meaning: the one place they are defined. systemd's `RestartPreventExitStatus=65 75 77 78` and the
/// operator's scripts depend on them; never renumber one.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Success: the daemon stopped with everything accepted on disk; a tool did what was asked; a file loads.
    case success = 0
    /// `workspacectl`: the daemon answered and refused the request (its JSON error is printed).
    case refused = 1
    /// `EX_USAGE`: the command line is wrong (the argument parser's own status).
    case usage = 64
    /// `EX_DATAERR`: a file's content is unreadable: a corrupt state file under policy `refuse` (the daemon does
    /// not restart), `workspaced check` of a corrupt file, `workspaced secrets check` of an unreadable one.
    case dataError = 65
    /// `EX_NOINPUT`: the file to inspect does not exist.
    case noInput = 66
    /// `EX_UNAVAILABLE`: `workspacectl` cannot reach the daemon, or it does not answer; `workspaced reload` cannot
    /// read or signal the daemon's process.
    case unavailable = 69
    /// `EX_CANTCREAT`: the state directory cannot be created, or another process holds the state lock.
    case cannotCreate = 73
    /// `EX_IOERR`: the state could not be read, the final flush failed (the old file is intact), or the control
    /// socket could not be served.
    case ioError = 74
    /// `EX_TEMPFAIL`: the state file comes from a newer release that this one cannot read; it was not changed
    /// (the daemon does not restart: install the newer release).
    case temporaryFailure = 75
    /// `EX_PROTOCOL`: `workspacectl` got an answer that is not what the API promises.
    case protocolError = 76
    /// `EX_NOPERM`: the service's user may not read or lock a file in its state directory (the message names the
    /// file, its owner and mode, the user, and the command that fixes it); the daemon does not restart.
    case permissionDenied = 77
    /// `EX_CONFIG`: the configuration is invalid (the message names the key); the daemon does not restart.
    case configuration = 78

    /// One line: the `sysexits.h` name and what it means here.
    public var meaning: String {
        switch self {
        case .success: "success"
        case .refused: "refused by the daemon"
        case .usage: "EX_USAGE: bad command line"
        case .dataError: "EX_DATAERR: unreadable file content"
        case .noInput: "EX_NOINPUT: no such file"
        case .unavailable: "EX_UNAVAILABLE: daemon unreachable"
        case .cannotCreate: "EX_CANTCREAT: cannot create the state directory, or the state is locked"
        case .ioError: "EX_IOERR: I/O error, the old file is intact"
        case .temporaryFailure: "EX_TEMPFAIL: state file from a newer release"
        case .protocolError: "EX_PROTOCOL: unexpected answer from the daemon"
        case .permissionDenied: "EX_NOPERM: the service's user may not read a file of its state"
        case .configuration: "EX_CONFIG: invalid configuration"
        }
    }
}
