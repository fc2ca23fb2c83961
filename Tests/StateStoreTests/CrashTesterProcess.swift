import Foundation
import StateStore
import StateStoreSample
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A running `StateStoreCrashTester` child (a ``TestSupport/RunningProcess``) with its output read line by line
/// as it grows. The reads and the wait for the exit hold no thread: ``eventually(timeout:_:)`` polls the output
/// file, so a crash test running for seconds leaves the cooperative pool to the tests beside it. The tester's
/// stderr (how long each save took) is in the same file; the tests look lines up by their prefix.
final class CrashTesterProcess {
    /// The tester next to the test binary (built by `swift build --build-tests`).
    static var executable: String { ProductPaths.executable("StateStoreCrashTester") }

    let process: RunningProcess
    /// The output file, open for reading from where the last read stopped.
    private let output: Int32
    private var buffer = Data()
    private var lines: [String] = []
    private var ended = false

    init(path: String, arguments: [String] = []) throws {
        let outputPath = "/tmp/crash-tester-\(UUID().uuidString).log"
        process = try RunningProcess(
            Self.executable, [path] + arguments, environment: ["PATH": "/usr/bin:/bin"], outputPath: outputPath)
        output = open(outputPath, O_RDONLY | O_CLOEXEC)
        guard output >= 0 else { throw TestSupportError(description: "open \(outputPath): \(errno)") }
    }

    deinit {
        close(output)
        unlink(process.outputPath)
    }

    var pid: Int32 { process.pid }

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

    /// Reads what the file holds past the last read without waiting; whether it read bytes or found the end of the
    /// output. The output ends once the tester has exited and everything it wrote is read: the exit is checked
    /// before the read, so that a last line written just before the exit is still read.
    private func readAvailable() -> Bool {
        let exited = process.exitStatus != nil
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
        if count > 0 {
            buffer.append(contentsOf: chunk[..<count])
            return true
        }
        if count < 0 && errno == EINTR { return false }
        if count < 0 || exited {
            ended = true
            return true
        }
        return false
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
        _ = await process.waitForExit()
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
