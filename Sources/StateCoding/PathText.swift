/// The last component of a path and the path without it, as `NSString`'s `lastPathComponent` and
/// `deletingLastPathComponent` give them, for modules that link FoundationEssentials only: runs of slashes count
/// as one, a trailing slash is dropped (except the root's), and the root stays the root. Where
/// swift-corelibs-foundation's `NSString` errs, this does not: it makes `//` empty and traps on `a`, `a/` and `.`.
package enum PathText {
    /// The path's last component: `"/a/b/"` → `"b"`, `"/"` → `"/"`, `"a"` → `"a"`, `""` → `""`.
    package static func lastComponent(of path: String) -> String {
        let fixed = fixingSlashes(path)
        guard fixed.utf8.count > 1, let slash = fixed.utf8.lastIndex(of: UInt8(ascii: "/")) else { return fixed }
        return String(fixed[fixed.utf8.index(after: slash)...])
    }

    /// The path without its last component: `"/a/b"` → `"/a"`, `"/a"` → `"/"`, `"a"` → `""`, `"/"` → `"/"`.
    package static func deletingLastComponent(of path: String) -> String {
        let fixed = fixingSlashes(path)
        guard fixed != "/", let slash = fixed.utf8.lastIndex(of: UInt8(ascii: "/")) else {
            return fixed == "/" ? fixed : ""
        }
        if slash == fixed.startIndex { return "/" }
        return String(fixed[..<slash])
    }

    /// `path` with each run of slashes made one and a trailing slash dropped, unless the path is the root.
    private static func fixingSlashes(_ path: String) -> String {
        guard path.utf8.contains(UInt8(ascii: "/")) else { return path }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count)
        for byte in path.utf8 where !(byte == UInt8(ascii: "/") && bytes.last == UInt8(ascii: "/")) {
            bytes.append(byte)
        }
        if bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
