import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A small tmpfs mounted over a directory, so that writes there run out of space. Mounting needs root; call
/// ``unmount()`` (in a `defer`) when done.
struct SmallTmpfs {
    let path: String

    /// Mounts a tmpfs of `size` (as `mount -o size=` takes it) over `path`, or returns `nil` when not root:
    /// then it prints that `test` is skipped, or records an issue when `CI=true` requires every test to run.
    static func mountIfRoot(at path: String, size: String = "64k", test: String) throws -> SmallTmpfs? {
        guard getuid() == 0 else {
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                Issue.record("\(test) needs root (a small tmpfs) and CI=true requires it to run")
            } else {
                print("skipping \(test): needs root to mount a small tmpfs")
            }
            return nil
        }
        try run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size),mode=0700", "tmpfs", path])
        return SmallTmpfs(path: path)
    }

    private init(path: String) {
        self.path = path
    }

    /// Unmounts lazily, so open files in the mount do not keep it busy.
    func unmount() {
        try? Self.run("/bin/umount", ["-l", path])
    }

    /// Writes `name` in the mount until the file system is full; returns the bytes written.
    @discardableResult
    func fill(_ name: String = "filler") throws -> Int {
        let fd = open(path + "/" + name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw TmpfsError(operation: "open \(name)", reason: Self.errnoText()) }
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0x2e, count: 4096)
        var total = 0
        while true {
            let written = chunk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written > 0 {
                total += written
                continue
            }
            guard written < 0, errno == ENOSPC else {
                throw TmpfsError(operation: "write \(name)", reason: written == 0 ? "wrote nothing" : Self.errnoText())
            }
            return total
        }
    }

    /// Removes `name` from the mount, giving its space back.
    func remove(_ name: String = "filler") throws {
        guard unlink(path + "/" + name) == 0 else {
            throw TmpfsError(operation: "unlink \(name)", reason: Self.errnoText())
        }
    }

    private static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TmpfsError(
                operation: "\(tool) \(arguments.joined(separator: " "))", reason: "exit \(process.terminationStatus)")
        }
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}

/// A mount or file operation on the small tmpfs that failed.
struct TmpfsError: Error, CustomStringConvertible {
    let operation: String
    let reason: String

    var description: String { "\(operation) failed: \(reason)" }
}
