import FoundationEssentials
import Glibc
import StateStore

/// A file of the state that a user may not read, with what an operator needs to fix it: the file's owner and mode,
/// the user, and the command that gives the file to that user.
///
/// Made when a start fails with `EACCES` or `EPERM` on a file of the state directory (``DaemonStartError``), and by
/// `workspaced check` run as root, which judges the file as the state directory's owner (the service's user under
/// `DynamicUser=`) would meet it rather than as root.
package struct FileAccessProblem: Sendable, Equatable, CustomStringConvertible {
    /// The file.
    package var path: String
    /// The file's owner and group.
    package var ownerUID: UInt32
    package var ownerGID: UInt32
    /// The file's permission bits.
    package var mode: UInt32
    /// The user and group that may not read it.
    package var userUID: UInt32
    package var userGID: UInt32

    /// The command, run as root, that gives the file to the user.
    package var fix: String { "chown \(userUID):\(userGID) \(Self.quoted(path))" }

    /// One sentence: whose the file is, who may not read it, and the fix.
    package var description: String {
        "\(path) belongs to \(Self.name(uid: ownerUID)):\(ownerGID) with mode \(DecimalText.padded(mode, width: 4, radix: 8)), "
            + "which \(Self.name(uid: userUID)) (the service's user) may not read; as root, run: \(fix)"
    }

    /// The problem `uid`:`gid` meets reading `path`, judged from its owner and mode; `nil` when the user may read
    /// it, or when `path` cannot be examined.
    package static func reading(_ path: String, as uid: UInt32, gid: UInt32) -> FileAccessProblem? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let mode = UInt32(info.st_mode) & 0o7777
        let readable: Bool
        if uid == 0 {
            readable = true
        } else if info.st_uid == uid {
            readable = mode & 0o400 != 0
        } else if info.st_gid == gid {
            readable = mode & 0o040 != 0
        } else {
            readable = mode & 0o004 != 0
        }
        guard !readable else { return nil }
        return FileAccessProblem(
            path: path, ownerUID: info.st_uid, ownerGID: info.st_gid, mode: mode, userUID: uid, userGID: gid)
    }

    /// The problem this process met on `error`'s file, when `error` is a permission error; `nil` otherwise.
    package static func meeting(_ error: FileSystemError) -> FileAccessProblem? {
        guard error.errno == EACCES || error.errno == EPERM else { return nil }
        return reading(error.path, as: geteuid(), gid: getegid())
            ?? FileAccessProblem(
                path: error.path, ownerUID: 0, ownerGID: 0, mode: 0, userUID: geteuid(), userGID: getegid())
    }

    /// `uid 61234 (workspaced)`, or `uid 61234` when the user has no name here.
    private static func name(uid: UInt32) -> String {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "uid \(uid)" }
        return "uid \(uid) (\(String(cString: name)))"
    }

    /// `path`, in single quotes when a shell would split or expand it.
    private static func quoted(_ path: String) -> String {
        let plain = path.allSatisfy { $0.isLetter || $0.isNumber || "/._-+".contains($0) }
        return plain ? path : "'" + path.replacing("'", with: #"'\''"#) + "'"
    }
}
