extension StateStoreError {
    /// The error number of the system call that failed, when one did (`ENOSPC` for a full disk, `EIO` for a
    /// device error); `nil` for errors no call reported (a corrupt file, a failed encoding, a refusal).
    public var errno: Int32? {
        switch self {
        case .lockFailed(let error), .readFailed(let error), .backupFailed(let error):
            return error.errno
        case .quarantineFailed(_, _, let error), .journalFailed(_, _, let error):
            return error.errno
        case .writeFailed(let error):
            return error.underlying.errno
        case .backupCopyFailed(_, let copy):
            return copy.underlying.errno
        case .locked, .newerVersion, .corrupt, .unsealFailed, .encodingFailed, .notWritable, .backupNotFound,
            .backupUnreadable, .loadRecordFailed, .downgradeRefused:
            return nil
        }
    }
}
