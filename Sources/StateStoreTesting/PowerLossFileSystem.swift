import Foundation
import StateStore
import Synchronization

/// An in-memory `FileSystem` that keeps what is durable apart from what was only written, so a test can
/// cut the power at any call and ask which disks the machine may come back with.
///
/// The model of power loss: a file's bytes are durable once it is fsynced; a name (a creation, a rename,
/// a link, a removal) is durable once its directory is fsynced. Until then either may or may not have reached the
/// disk, and bytes that did not may be torn.
///
/// ```swift
/// let fileSystem = PowerLossFileSystem(files: ["/sim/workspace.json": oldBytes])
/// fileSystem.crash(beforeCall: 7)      // the 8th mutating call and everything after it fail with EIO
/// try? StateFile(path: "/sim/workspace.json", schema: schema, fileSystem: fileSystem).save(model)
/// for disk in fileSystem.disksAfterCrash() { … load `disk.files` and check it … }
/// ```
///
/// Mutating calls are counted (``mutatingCalls``): create, write, fsync, close, rename, link, unlink, the
/// directory fsync, and an overwrite in place (its write, and its flush when durable). Reads are not. The lock is
/// always granted; a lock file's text (its holder and a clean stop's marker, `StateFile.recordCleanStop(revision:)`)
/// is kept apart from the files, durable once its descriptor is fsynced, and never part of a disk after the crash
/// (the next start finds no marker).
public final class PowerLossFileSystem: FileSystem, Sendable {
    /// One of the disks the machine may come back with after the crash.
    public struct Disk: Sendable, CustomStringConvertible {
        /// How this disk came to be.
        public var name: String
        /// Every file's path and bytes.
        public var files: [String: Data]

        /// The name and the files' paths and sizes.
        public var description: String {
            "\(name): " + files.keys.sorted().map { "\($0) (\(files[$0]!.count) B)" }.joined(separator: ", ")
        }
    }

    private final class Inode: @unchecked Sendable {
        var written: [UInt8]
        var durable: [UInt8]
        var mode: UInt32
        var modified: Int

        init(bytes: [UInt8], durable: Bool, mode: UInt32, modified: Int) {
            written = bytes
            self.durable = durable ? bytes : []
            self.mode = mode
            self.modified = modified
        }
    }

    private struct State: @unchecked Sendable {
        var names: [String: Inode] = [:]
        var durableNames: [String: Inode] = [:]
        var descriptors: [Int32: (inode: Inode, path: String)] = [:]
        var nextDescriptor: Int32 = 1000
        /// Lock descriptors and the lock file each holds.
        var locks: [Int32: String] = [:]
        /// Lock files' text as written and as last fsynced.
        var lockTexts: [String: (written: String, durable: String)] = [:]
        var calls = 0
        var crashBefore: Int?
        var crashed = false
    }

    private let state = Mutex(State())

    /// A file system holding `files`, all of them durable.
    public init(files: [String: Data] = [:]) {
        state.withLock { state in
            for (path, data) in files {
                let inode = Inode(bytes: Array(data), durable: true, mode: 0o600, modified: 0)
                state.names[path] = inode
                state.durableNames[path] = inode
            }
        }
    }

    /// Cuts the power just before mutating call number `index` (counted from 0): that call and every later call,
    /// reads included, fail with `EIO` and change nothing.
    public func crash(beforeCall index: Int) {
        state.withLock { $0.crashBefore = index }
    }

    /// How many mutating calls were made (before the crash, when there was one).
    public var mutatingCalls: Int { state.withLock { $0.calls } }

    /// Whether the power was cut.
    public var crashed: Bool { state.withLock { $0.crashed } }

    /// The disks the machine may come back with now: the names as of the last directory fsyncs or as they are, and
    /// each file's bytes as last fsynced, as written, or (where they differ) torn halfway.
    public func disksAfterCrash() -> [Disk] {
        state.withLock { state in
            func disk(_ name: String, _ names: [String: Inode], _ bytes: (Inode) -> [UInt8]) -> Disk {
                Disk(name: name, files: names.mapValues { Data(bytes($0)) })
            }
            func torn(_ inode: Inode) -> [UInt8] {
                guard inode.written != inode.durable else { return inode.durable }
                if inode.written.count == inode.durable.count {
                    // Overwritten in place: the new bytes' first half over the old second half.
                    let half = inode.written.count / 2
                    return Array(inode.written.prefix(half) + inode.durable.suffix(from: half))
                }
                let kept = min(inode.durable.count, inode.written.count)
                let half = kept + (inode.written.count - kept) / 2
                return Array(inode.written.prefix(half))
            }
            return [
                disk("directories as last fsynced, files as last fsynced", state.durableNames, \.durable),
                disk("directories as last fsynced, files as written", state.durableNames, \.written),
                disk("directories as last fsynced, unsynced bytes torn", state.durableNames, torn),
                disk("every name change reached the disk, files as last fsynced", state.names, \.durable),
                disk("every name change reached the disk, files as written", state.names, \.written),
                disk("every name change reached the disk, unsynced bytes torn", state.names, torn),
            ]
        }
    }

    /// Counts a mutating call, or fails it when the power is (or is now) cut.
    private func mutating(_ operation: String, _ path: String, _ state: inout State) throws(FileSystemError) {
        if state.crashed { throw FileSystemError(operation: operation, path: path, errno: EIO) }
        if let crashBefore = state.crashBefore, state.calls >= crashBefore {
            state.crashed = true
            throw FileSystemError(operation: operation, path: path, errno: EIO)
        }
        state.calls += 1
    }

    private static func parent(of path: String) -> String { (path as NSString).deletingLastPathComponent }

    /// The bytes as written (the running system's view).
    public func readFile(at path: String) throws(FileSystemError) -> Data? {
        try state.withLock { state throws(FileSystemError) -> Data? in
            if state.crashed { throw FileSystemError(operation: "read", path: path, errno: EIO) }
            return state.names[path].map { Data($0.written) } ?? state.lockTexts[path].map { Data($0.written.utf8) }
        }
    }

    /// Creates an empty file: its name is durable after a directory fsync, its bytes after an fsync.
    public func createFile(
        in directory: String, prefix: String, mode: UInt32
    ) throws(FileSystemError) -> (descriptor: Int32, path: String) {
        try state.withLock { state throws(FileSystemError) -> (descriptor: Int32, path: String) in
            let path = directory + "/" + prefix + "\(state.nextDescriptor)"
            try mutating("open", path, &state)
            let inode = Inode(bytes: [], durable: false, mode: mode, modified: state.calls)
            state.names[path] = inode
            let descriptor = state.nextDescriptor
            state.nextDescriptor += 1
            state.descriptors[descriptor] = (inode, path)
            return (descriptor, path)
        }
    }

    /// Appends all of `bytes`: written, not durable.
    public func write(
        _ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, path: String
    ) throws(FileSystemError) -> Int {
        try state.withLock { state throws(FileSystemError) -> Int in
            try mutating("write", path, &state)
            guard let open = state.descriptors[descriptor] else {
                throw FileSystemError(operation: "write", path: path, errno: EBADF)
            }
            open.inode.written += Array(bytes)
            open.inode.modified = state.calls
            return bytes.count
        }
    }

    /// Overwrites an existing file's bytes in place, its size unchanged (written, not durable); with `durably`,
    /// a second mutating call makes them durable. `false` when there is no such file or `bytes` does not fit.
    public func overwriteInPlace(
        _ bytes: [UInt8], at path: String, padding: UInt8, durably: Bool
    ) throws(FileSystemError) -> Bool {
        try state.withLock { state throws(FileSystemError) -> Bool in
            if state.crashed { throw FileSystemError(operation: "open", path: path, errno: EIO) }
            guard let inode = state.names[path], inode.written.count >= bytes.count else { return false }
            try mutating("pwrite", path, &state)
            inode.written = bytes + [UInt8](repeating: padding, count: inode.written.count - bytes.count)
            inode.modified = state.calls
            if durably {
                try mutating("fdatasync", path, &state)
                inode.durable = inode.written
            }
            return true
        }
    }

    /// Makes the file's written bytes durable.
    public func fsync(_ descriptor: Int32, path: String) throws(FileSystemError) {
        try state.withLock { state throws(FileSystemError) in
            try mutating("fsync", path, &state)
            if let lockPath = state.locks[descriptor] {
                if let text = state.lockTexts[lockPath] { state.lockTexts[lockPath] = (text.written, text.written) }
                return
            }
            guard let open = state.descriptors[descriptor] else {
                throw FileSystemError(operation: "fsync", path: path, errno: EBADF)
            }
            open.inode.durable = open.inode.written
        }
    }

    /// Forgets the descriptor.
    public func close(_ descriptor: Int32, path: String) throws(FileSystemError) {
        try state.withLock { state throws(FileSystemError) in
            state.descriptors[descriptor] = nil
            state.locks[descriptor] = nil
            try mutating("close", path, &state)
        }
    }

    /// Moves the name: durable after a directory fsync.
    public func rename(_ source: String, to destination: String) throws(FileSystemError) {
        try state.withLock { state throws(FileSystemError) in
            try mutating("rename", destination, &state)
            guard let inode = state.names.removeValue(forKey: source) else {
                throw FileSystemError(operation: "rename", path: source, errno: ENOENT)
            }
            state.names[destination] = inode
        }
    }

    /// Adds a name (`EEXIST` when taken): durable after a directory fsync.
    public func link(_ source: String, to destination: String) throws(FileSystemError) {
        try state.withLock { state throws(FileSystemError) in
            try mutating("link", destination, &state)
            guard let inode = state.names[source] else {
                throw FileSystemError(operation: "link", path: source, errno: ENOENT)
            }
            guard state.names[destination] == nil else {
                throw FileSystemError(operation: "link", path: destination, errno: EEXIST)
            }
            state.names[destination] = inode
        }
    }

    /// Removes a name: durable after a directory fsync.
    public func unlink(_ path: String) throws(FileSystemError) {
        try state.withLock { state throws(FileSystemError) in
            try mutating("unlink", path, &state)
            guard state.names.removeValue(forKey: path) != nil else {
                throw FileSystemError(operation: "unlink", path: path, errno: ENOENT)
            }
        }
    }

    /// Directories are implicit here (a name's directory is its path up to the last `/`): counted as a mutating
    /// call, so that a crash can fall on it, and otherwise nothing.
    public func createDirectory(_ path: String, mode: UInt32) throws(FileSystemError) {
        try state.withLock { state throws(FileSystemError) in try mutating("mkdir", path, &state) }
    }

    /// Makes every file's written bytes and every name durable (`syncfs(2)`).
    public func syncFileSystem(containing path: String) throws(FileSystemError) {
        try state.withLock { state throws(FileSystemError) in
            try mutating("syncfs", path, &state)
            for inode in state.names.values { inode.durable = inode.written }
            state.durableNames = state.names
        }
    }

    /// Makes every name change in the directory durable.
    public func fsyncDirectory(_ path: String) throws(FileSystemError) {
        try state.withLock { state throws(FileSystemError) in
            try mutating("fsync", path, &state)
            state.durableNames = state.durableNames.filter { Self.parent(of: $0.key) != path }
            for (name, inode) in state.names where Self.parent(of: name) == path {
                state.durableNames[name] = inode
            }
        }
    }

    /// The names in the directory now.
    public func contentsOfDirectory(_ path: String) throws(FileSystemError) -> [String] {
        try state.withLock { state throws(FileSystemError) -> [String] in
            if state.crashed { throw FileSystemError(operation: "opendir", path: path, errno: EIO) }
            return state.names.keys.filter { Self.parent(of: $0) == path }.map { ($0 as NSString).lastPathComponent }
        }
    }

    /// Size and mode as written; the modification time counts calls.
    public func attributes(of path: String) throws(FileSystemError) -> FileAttributes? {
        try state.withLock { state throws(FileSystemError) -> FileAttributes? in
            if state.crashed { throw FileSystemError(operation: "stat", path: path, errno: EIO) }
            return state.names[path].map {
                FileAttributes(
                    size: $0.written.count, modificationDate: Date(timeIntervalSince1970: Double($0.modified)),
                    mode: $0.mode)
            }
        }
    }

    /// Always granted (locks are not modelled).
    public func lockFile(_ path: String, mode: UInt32) throws(FileSystemError) -> Int32 {
        try state.withLock { state throws(FileSystemError) -> Int32 in
            if state.crashed { throw FileSystemError(operation: "lock", path: path, errno: EIO) }
            let descriptor = state.nextDescriptor
            state.nextDescriptor += 1
            state.locks[descriptor] = path
            return descriptor
        }
    }

    /// Overwrites the lock file's text in place with `text` and spaces (written), then flushes it in a second
    /// mutating call (durable); `false` when `text` does not fit in the text written.
    public func overwriteLockOwner(_ descriptor: Int32, _ text: String, path: String) throws(FileSystemError) -> Bool {
        try state.withLock { state throws(FileSystemError) -> Bool in
            if state.crashed { throw FileSystemError(operation: "pwrite", path: path, errno: EIO) }
            let old = state.lockTexts[path]?.written ?? ""
            guard old.utf8.count >= text.utf8.count else { return false }
            try mutating("pwrite", path, &state)
            let padded = text + String(repeating: " ", count: old.utf8.count - text.utf8.count)
            state.lockTexts[path, default: ("", "")].written = padded
            try mutating("fdatasync", path, &state)
            state.lockTexts[path] = (padded, padded)
            return true
        }
    }

    /// Replaces the lock file's text: written, durable after an fsync of `descriptor`.
    public func writeLockOwner(_ descriptor: Int32, _ text: String, path: String) throws(FileSystemError) {
        try state.withLock { state throws(FileSystemError) in
            try mutating("pwrite", path, &state)
            state.lockTexts[path, default: ("", "")].written = text
        }
    }
}
