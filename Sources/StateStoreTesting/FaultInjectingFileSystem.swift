import Foundation
import StateStore
import Synchronization

/// A `FileSystem` that passes calls to a real one and fails chosen calls on demand, so tests can
/// check what a store does when open, write, fsync, close, rename or a directory fsync fails.
///
/// ```swift
/// let fileSystem = FaultInjectingFileSystem()
/// fileSystem.inject(.fsync, errno: EIO)          // the next fsync fails with EIO
/// fileSystem.injectShortWrite(maxBytes: 10)      // the next write writes at most 10 bytes
/// ```
///
/// Every call is recorded in ``calls``, in order, for assertions on the syscall sequence.
public final class FaultInjectingFileSystem: FileSystem {
    /// The calls that can fail.
    public enum Operation: String, Sendable, CaseIterable {
        /// `FileSystem.readFile(at:)`.
        case read
        /// `FileSystem.createFile(in:prefix:mode:)` (the open of a temporary file).
        case create
        /// `FileSystem.write(_:_:path:)`.
        case write
        /// `FileSystem.fsync(_:path:)`.
        case fsync
        /// `FileSystem.close(_:path:)`; the descriptor is still closed, as on Linux.
        case close
        /// `FileSystem.rename(_:to:)`.
        case rename
        /// `FileSystem.link(_:to:)`.
        case link
        /// `FileSystem.unlink(_:)`.
        case unlink
        /// `FileSystem.fsyncDirectory(_:)`.
        case fsyncDirectory
        /// `FileSystem.contentsOfDirectory(_:)`.
        case list
        /// `FileSystem.attributes(of:)`.
        case attributes
        /// `FileSystem.lockFile(_:mode:)`.
        case lock
    }

    /// One recorded call.
    public struct Call: Sendable, Equatable {
        /// The operation.
        public var operation: Operation
        /// The path it acted on.
        public var path: String
        /// Whether an injected fault made it fail.
        public var failed: Bool
    }

    private struct Fault {
        var operation: Operation
        var remainingCalls: Int
        var errno: Int32
        var shortWrite: Int?
        var repeats: Bool
    }

    private struct State {
        var faults: [Fault] = []
        var calls: [Call] = []
        var beforeCall: (@Sendable (Operation, String) -> Void)?
    }

    private let base: any FileSystem
    private let state = Mutex(State())

    /// Wraps `base` (the real file system by default).
    public init(base: any FileSystem = PosixFileSystem()) {
        self.base = base
    }

    /// Makes the `occurrence`-th next call of `operation` fail with `errno` (and, with `repeating`, every call
    /// after it too, until ``clearFaults()``).
    public func inject(_ operation: Operation, errno: Int32, occurrence: Int = 1, repeating: Bool = false) {
        state.withLock {
            $0.faults.append(
                Fault(
                    operation: operation, remainingCalls: max(1, occurrence), errno: errno, shortWrite: nil,
                    repeats: repeating))
        }
    }

    /// Makes the `occurrence`-th next write write at most `maxBytes` bytes (a short write, not an error).
    public func injectShortWrite(maxBytes: Int, occurrence: Int = 1) {
        state.withLock {
            $0.faults.append(
                Fault(
                    operation: .write, remainingCalls: max(1, occurrence), errno: 0, shortWrite: maxBytes,
                    repeats: false))
        }
    }

    /// Removes every pending fault.
    public func clearFaults() {
        state.withLock { $0.faults.removeAll() }
    }

    /// Runs `hook` before every call, outside the lock: tests use it to block a save in flight.
    public func setBeforeCall(_ hook: (@Sendable (Operation, String) -> Void)?) {
        state.withLock { $0.beforeCall = hook }
    }

    /// Every call so far, in order.
    public var calls: [Call] { state.withLock { $0.calls } }

    /// How many calls of `operation` were made.
    public func count(of operation: Operation) -> Int {
        state.withLock { $0.calls.filter { $0.operation == operation }.count }
    }

    /// Records the call and returns the fault that applies to it, if any.
    private func begin(_ operation: Operation, _ path: String) -> Fault? {
        let hook = state.withLock { $0.beforeCall }
        hook?(operation, path)
        return state.withLock { state in
            var fired: Fault?
            for index in state.faults.indices where state.faults[index].operation == operation {
                state.faults[index].remainingCalls -= 1
                if state.faults[index].remainingCalls == 0 && fired == nil {
                    fired = state.faults[index]
                }
            }
            state.faults.removeAll { $0.remainingCalls <= 0 && !$0.repeats }
            if let index = state.faults.firstIndex(where: {
                $0.operation == operation && $0.repeats && $0.remainingCalls <= 0
            }), fired == nil {
                fired = state.faults[index]
            }
            state.calls.append(Call(operation: operation, path: path, failed: fired != nil && fired?.shortWrite == nil))
            return fired
        }
    }

    private func fail(_ fault: Fault?, _ name: String, _ path: String) throws(FileSystemError) {
        if let fault, fault.shortWrite == nil {
            throw FileSystemError(operation: name, path: path, errno: fault.errno)
        }
    }

    /// Reads through the base unless a fault applies.
    public func readFile(at path: String) throws(FileSystemError) -> Data? {
        try fail(begin(.read, path), "read", path)
        return try base.readFile(at: path)
    }

    /// Creates through the base unless a fault applies.
    public func createFile(
        in directory: String, prefix: String, mode: UInt32
    ) throws(FileSystemError) -> (
        descriptor: Int32, path: String
    ) {
        try fail(begin(.create, directory + "/" + prefix), "open", directory + "/" + prefix)
        return try base.createFile(in: directory, prefix: prefix, mode: mode)
    }

    /// Writes through the base, shortened or failed when a fault applies.
    public func write(
        _ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, path: String
    ) throws(FileSystemError)
        -> Int
    {
        let fault = begin(.write, path)
        try fail(fault, "write", path)
        if let limit = fault?.shortWrite {
            return try base.write(descriptor, UnsafeRawBufferPointer(rebasing: bytes.prefix(limit)), path: path)
        }
        return try base.write(descriptor, bytes, path: path)
    }

    /// fsyncs through the base unless a fault applies.
    public func fsync(_ descriptor: Int32, path: String) throws(FileSystemError) {
        try fail(begin(.fsync, path), "fsync", path)
        try base.fsync(descriptor, path: path)
    }

    /// Always closes the descriptor, then reports an injected failure if one applies.
    public func close(_ descriptor: Int32, path: String) throws(FileSystemError) {
        let fault = begin(.close, path)
        try base.close(descriptor, path: path)
        try fail(fault, "close", path)
    }

    /// Renames through the base unless a fault applies.
    public func rename(_ source: String, to destination: String) throws(FileSystemError) {
        try fail(begin(.rename, destination), "rename", destination)
        try base.rename(source, to: destination)
    }

    /// Links through the base unless a fault applies.
    public func link(_ source: String, to destination: String) throws(FileSystemError) {
        try fail(begin(.link, destination), "link", destination)
        try base.link(source, to: destination)
    }

    /// Syncs through the base unless a fault applies (an `fsyncDirectory` fault).
    public func syncFileSystem(containing path: String) throws(FileSystemError) {
        try fail(begin(.fsyncDirectory, path), "syncfs", path)
        try base.syncFileSystem(containing: path)
    }

    /// Creates the directory through the base unless a fault applies (a `create` fault).
    public func createDirectory(_ path: String, mode: UInt32) throws(FileSystemError) {
        try fail(begin(.create, path), "mkdir", path)
        try base.createDirectory(path, mode: mode)
    }

    /// Unlinks through the base unless a fault applies.
    public func unlink(_ path: String) throws(FileSystemError) {
        try fail(begin(.unlink, path), "unlink", path)
        try base.unlink(path)
    }

    /// fsyncs the directory through the base unless a fault applies.
    public func fsyncDirectory(_ path: String) throws(FileSystemError) {
        try fail(begin(.fsyncDirectory, path), "fsync", path)
        try base.fsyncDirectory(path)
    }

    /// Lists through the base unless a fault applies.
    public func contentsOfDirectory(_ path: String) throws(FileSystemError) -> [String] {
        try fail(begin(.list, path), "opendir", path)
        return try base.contentsOfDirectory(path)
    }

    /// stats through the base unless a fault applies.
    public func attributes(of path: String) throws(FileSystemError) -> FileAttributes? {
        try fail(begin(.attributes, path), "stat", path)
        return try base.attributes(of: path)
    }

    /// Locks through the base unless a fault applies.
    public func lockFile(_ path: String, mode: UInt32) throws(FileSystemError) -> Int32 {
        try fail(begin(.lock, path), "flock", path)
        return try base.lockFile(path, mode: mode)
    }

    /// Overwrites through the base unless a fault applies: the write is a `write` call and, with `durably`, the
    /// flush an `fsync` call, both on `path`; a short-write fault writes nothing and returns `false`.
    public func overwriteInPlace(
        _ bytes: [UInt8], at path: String, padding: UInt8, durably: Bool
    ) throws(FileSystemError) -> Bool {
        let fault = begin(.write, path)
        try fail(fault, "pwrite", path)
        if fault?.shortWrite != nil { return false }
        if durably { try fail(begin(.fsync, path), "fdatasync", path) }
        return try base.overwriteInPlace(bytes, at: path, padding: padding, durably: durably)
    }

    /// Overwrites the lock owner through the base unless a fault applies: the write is not faulted, as
    /// ``writeLockOwner(_:_:path:)``'s is not; the flush is an `fsync` call on `path`, the one the replacement
    /// would make.
    public func overwriteLockOwner(_ descriptor: Int32, _ text: String, path: String) throws(FileSystemError) -> Bool {
        try fail(begin(.fsync, path), "fdatasync", path)
        return try base.overwriteLockOwner(descriptor, text, path: path)
    }

    /// Writes the lock owner through the base.
    public func writeLockOwner(_ descriptor: Int32, _ text: String, path: String) throws(FileSystemError) {
        try base.writeLockOwner(descriptor, text, path: path)
    }
}
