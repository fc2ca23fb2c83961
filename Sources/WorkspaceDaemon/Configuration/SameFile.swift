import FoundationEssentials
import Glibc

/// Whether two absolute paths name the same file: the same device and inode when both exist; otherwise the same
/// canonical path (symbolic links resolved as far as the path exists, `.`, `..` and repeated slashes removed).
enum SameFile {
    /// Whether `first` and `second` name one file.
    static func check(_ first: String, _ second: String) -> Bool {
        if let a = identity(first), let b = identity(second) { return a == b }
        return canonical(first) == canonical(second)
    }

    /// The device and inode of the file at `path` (after symbolic links), when it exists.
    private static func identity(_ path: String) -> [UInt64]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }

    /// `path` with its longest existing prefix resolved by `realpath` and the rest normalized lexically.
    static func canonical(_ path: String) -> String {
        var components = lexical(path)
        var rest: [String] = []
        while true {
            let prefix = "/" + components.joined(separator: "/")
            if let resolved = realpath(prefix, nil) {
                defer { free(resolved) }
                let head = lexical(String(cString: resolved))
                return "/" + (head + rest).joined(separator: "/")
            }
            guard let last = components.popLast() else { return "/" + rest.joined(separator: "/") }
            rest.insert(last, at: 0)
        }
    }

    /// The components of `path` without empty ones, `.` and the directories `..` leaves.
    private static func lexical(_ path: String) -> [String] {
        var components: [String] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": _ = components.popLast()
            default: components.append(String(part))
            }
        }
        return components
    }
}
