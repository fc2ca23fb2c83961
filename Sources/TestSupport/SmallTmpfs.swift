import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A small tmpfs (or ext4 image) mounted over a directory, so that writes there run out of space. Mounting needs root; call
/// ``unmount()`` (in a `defer`) when done. The tmpfs is mounted and every mount unmounted by the system calls
/// themselves, with no child process; the ext4 image is made and loop-mounted by `mkfs.ext4` and `mount` through
/// ``runCommand(_:environment:descriptors:stderrIdentity:timeout:)``.
package struct SmallTmpfs {
    /// Where it is mounted.
    package let path: String

    /// Mounts a tmpfs of `size` (as `mount -o size=` takes it) over `path`, or returns `nil` when not root:
    /// then it prints that `test` is skipped, or throws when `CI=true` requires every test to run.
    package static func mountIfRoot(at path: String, size: String = "64k", test: String) throws -> SmallTmpfs? {
        guard try isRoot(for: test, needing: "a small tmpfs") else { return nil }
        let options = "size=\(size),mode=0700"
        guard mount("tmpfs", path, "tmpfs", 0, options) == 0 else {
            throw TmpfsError(operation: "mount tmpfs -o \(options) on \(path)", reason: errnoText())
        }
        return SmallTmpfs(path: path)
    }

    /// Mounts an ext4 file system of `megabytes` MB, made in the image file `image` with no blocks reserved for
    /// root (`mkfs.ext4 -m 0`, else root would write on), over `path` through a loop device; `nil` when not root
    /// (as ``mountIfRoot(at:size:test:)``). The loop device is released with the unmount (autoclear).
    package static func mountExt4IfRoot(
        at path: String, image: String, megabytes: Int = 4, test: String
    ) async throws -> SmallTmpfs? {
        guard try isRoot(for: test, needing: "an ext4 loop mount") else { return nil }
        let created = open(image, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard created >= 0 else { throw TmpfsError(operation: "create \(image)", reason: errnoText()) }
        close(created)
        guard truncate(image, off_t(megabytes) << 20) == 0 else {
            throw TmpfsError(operation: "truncate \(image) to \(megabytes) MiB", reason: errnoText())
        }
        try await run(["/sbin/mkfs.ext4", "-q", "-F", "-m", "0", image])
        try await run(["/bin/mount", "-t", "ext4", "-o", "loop", image, path])
        chmod(path, 0o700)
        return SmallTmpfs(path: path)
    }

    /// Whether the tests run as root; if not, prints that `test` is skipped for want of `what`, or throws (the test
    /// fails) when `CI=true` requires every test to run.
    private static func isRoot(for test: String, needing what: String) throws -> Bool {
        if getuid() == 0 { return true }
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            throw TmpfsError(operation: test, reason: "needs root (\(what)) and CI=true requires it to run")
        } else {
            print("skipping \(test): needs root for \(what)")
        }
        return false
    }

    private init(path: String) {
        self.path = path
    }

    /// Unmounts lazily (`MNT_DETACH`), so open files in the mount do not keep it busy.
    package func unmount() {
        _ = umount2(path, Int32(MNT_DETACH))
    }

    /// Writes `name` (and `name.1`, `name.2`, …) in the mount until the file system is full; returns the bytes
    /// written. Each file is fsynced: ext4 allocates late and gives back what it had reserved once a file is on
    /// disk, so the disk counts as full only when a new file cannot take a single byte.
    @discardableResult
    package func fill(_ name: String = "filler") throws -> Int {
        var total = 0
        for index in 0..<64 {
            let written = try fillOne(index == 0 ? name : "\(name).\(index)")
            total += written
            if written == 0 { return total }
        }
        throw TmpfsError(operation: "fill \(name)", reason: "the file system never filled up")
    }

    /// Writes one file until ENOSPC (4 KiB chunks, then single bytes) and fsyncs it; returns the bytes written.
    private func fillOne(_ name: String) throws -> Int {
        let fd = open(path + "/" + name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            if errno == ENOSPC { return 0 }
            throw TmpfsError(operation: "open \(name)", reason: Self.errnoText())
        }
        defer { close(fd) }
        var total = 0
        for size in [4096, 1] {
            let chunk = [UInt8](repeating: 0x2e, count: size)
            while true {
                let written = chunk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                if written > 0 {
                    total += written
                    continue
                }
                guard written < 0, errno == ENOSPC else {
                    throw TmpfsError(
                        operation: "write \(name)", reason: written == 0 ? "wrote nothing" : Self.errnoText())
                }
                break
            }
        }
        _ = fsync(fd)
        return total
    }

    /// Removes `name` and its numbered siblings from the mount, giving their space back.
    package func remove(_ name: String = "filler") throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let fillers = names.filter { $0 == name || $0.hasPrefix(name + ".") }
        guard !fillers.isEmpty else { throw TmpfsError(operation: "unlink \(name)", reason: "no such file") }
        for filler in fillers where unlink(path + "/" + filler) != 0 {
            throw TmpfsError(operation: "unlink \(filler)", reason: Self.errnoText())
        }
    }

    /// Runs `command` to its end through ``runCommand(_:environment:descriptors:stderrIdentity:timeout:)``; throws
    /// unless it exits 0.
    private static func run(_ command: [String]) async throws {
        let result = try await runCommand(command)
        guard result.status == 0 else {
            throw TmpfsError(
                operation: command.joined(separator: " "), reason: "exit \(result.status): \(result.output)")
        }
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}

/// A mount or file operation on the small tmpfs that failed.
package struct TmpfsError: Error, CustomStringConvertible {
    /// What failed.
    package let operation: String
    /// Why.
    package let reason: String

    /// The operation and the reason.
    package var description: String { "\(operation) failed: \(reason)" }
}
