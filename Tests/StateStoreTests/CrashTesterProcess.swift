import Foundation
import StateStore
import StateStoreSample
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A running `StateStoreCrashTester` child with its stdout read line by line. The reads and the wait for the exit
/// hold no thread: the pipe is non-blocking and ``eventually(timeout:_:)`` polls it, so a crash test running for
/// seconds leaves the cooperative pool to the tests beside it.
final class CrashTesterProcess {
    /// The tester next to the test binary (built by `swift build --build-tests`).
    static var executable: String { ProductPaths.executable("StateStoreCrashTester") }

    let process = Process()
    private let output = Pipe()
    private var buffer = Data()
    private var lines: [String] = []
    private var ended = false

    init(path: String, arguments: [String] = []) throws {
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = [path] + arguments
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let descriptor = output.fileHandleForReading.fileDescriptor
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    var pid: Int32 { process.processIdentifier }

    /// The next line; nil at end of output.
    func nextLine() async -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer = Data(buffer[(newline + 1)...])
                lines.append(line)
                return line
            }
            if ended { return nil }
            _ = await eventually { readAvailable() }
        }
    }

    /// Reads what the pipe holds without waiting; whether it read bytes or found the end of the output.
    private func readAvailable() -> Bool {
        let descriptor = output.fileHandleForReading.fileDescriptor
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count > 0 {
            buffer.append(contentsOf: chunk[..<count])
            return true
        }
        if count < 0 && (errno == EAGAIN || errno == EINTR) { return false }
        ended = true
        return true
    }

    /// Reads until a line starting with `prefix`; returns it, or nil at end of output.
    func line(startingWith prefix: String) async -> String? {
        while let line = await nextLine() {
            if line.hasPrefix(prefix) { return line }
        }
        return nil
    }

    /// Reads to the end of the output, waits for the exit and returns every line read.
    @discardableResult
    func finish() async -> [String] {
        while await nextLine() != nil {}
        _ = await eventually { !process.isRunning }
        return lines
    }

    /// The numbers of the `durable N` lines read.
    var durableRevisions: [UInt64] {
        lines.compactMap { $0.hasPrefix("durable ") ? UInt64($0.dropFirst(8)) : nil }
    }
}

/// The stored revision of the tester's state file, loaded the way a restarted service would load it.
func storedCrashTesterRevision(path: String) throws -> UInt64 {
    let file = StateFile(path: path, schema: try NotebookSchema.make())
    let loaded = try file.load()
    defer { file.unlock() }
    if case .integer(let value) = loaded.model.unknownFields.values["crashTesterRevision"] { return UInt64(value) }
    return 0
}
