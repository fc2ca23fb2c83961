import Foundation
import StateStore
import StateStoreSample

/// A running `StateStoreCrashTester` child with its stdout read line by line.
final class CrashTesterProcess {
    /// The tester next to the test binary (built by `swift build --build-tests`).
    static var executable: String {
        let binary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "."
        return (binary as NSString).deletingLastPathComponent + "/StateStoreCrashTester"
    }

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
    }

    var pid: Int32 { process.processIdentifier }

    /// The next line, blocking; nil at end of output.
    func nextLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer = Data(buffer[(newline + 1)...])
                lines.append(line)
                return line
            }
            if ended { return nil }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { ended = true } else { buffer.append(chunk) }
        }
    }

    /// Reads until a line starting with `prefix`; returns it, or nil at end of output.
    func line(startingWith prefix: String) -> String? {
        while let line = nextLine() {
            if line.hasPrefix(prefix) { return line }
        }
        return nil
    }

    /// Reads to the end of the output, waits for the exit and returns every line read.
    func finish() -> [String] {
        while nextLine() != nil {}
        process.waitUntilExit()
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
