import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The LD_PRELOAD fault shim (`Tests/FaultShim/faultshim.c`), compiled once per test process with the toolchain's
/// clang (or `cc`), and the control of one daemon's faults: which call fails with which errno on which path, set
/// and lifted while the daemon runs, and the log of every failure the shim injected.
final class FaultShim: @unchecked Sendable {
    /// The compiled shim, or why there is none: compiled by the first caller, awaited by the others, without
    /// blocking a thread of the cooperative pool (a blocked pool stalls every test in the process).
    static func library() async throws -> String {
        try await builder.library().get()
    }

    private static let builder = Builder()

    /// Compiles the shim once.
    private actor Builder {
        private var build: Task<Result<String, TestSupportError>, Never>?

        func library() async -> Result<String, TestSupportError> {
            if let build { return await build.value }
            let started = Task { await FaultShim.compile() }
            build = started
            return await started.value
        }
    }

    /// Where the source is: `Tests/FaultShim/faultshim.c`.
    static var sourcePath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("FaultShim/faultshim.c").path
    }

    /// A C compiler: the one next to `swift`, else clang or cc on the PATH.
    static var compiler: String? {
        var candidates: [String] = []
        if let path = ProcessInfo.processInfo.environment["PATH"] {
            for directory in path.split(separator: ":") {
                candidates += ["\(directory)/clang", "\(directory)/cc"]
            }
        }
        candidates += ["/opt/swift/usr/bin/clang", "/usr/bin/clang", "/usr/bin/cc"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    fileprivate static func compile() async -> Result<String, TestSupportError> {
        guard let compiler else { return .failure(TestSupportError(description: "no C compiler (clang or cc)")) }
        let output = "/tmp/wsd-faultshim-\(getpid()).so"
        do {
            let build = try RunningProcess(
                compiler,
                ["-shared", "-fPIC", "-O1", "-Wall", "-Werror", "-o", output, sourcePath, "-ldl", "-lpthread"],
                environment: ["PATH": "/usr/bin:/bin"], outputPath: output + ".log")
            guard await build.waitForExit(timeout: .seconds(120)) == 0 else {
                return .failure(TestSupportError(description: "compiling the shim failed: \(build.output)"))
            }
        } catch {
            return .failure(TestSupportError(description: "cannot run \(compiler): \(error)"))
        }
        return .success(output)
    }

    /// The control file the shim reads on every call in ``directory``.
    let controlPath: String
    /// The shim's log of injected failures.
    let logPath: String
    /// The directory whose calls may fail.
    let directory: String

    init(root: String, directory: String) {
        controlPath = root + "/fault-control"
        logPath = root + "/fault-log"
        self.directory = directory
        _ = FileManager.default.createFile(atPath: controlPath, contents: Data())
    }

    /// The environment that loads the shim into the daemon.
    func environment() async throws -> [String: String] {
        let library = try await Self.library()
        return [
            "LD_PRELOAD": library, "WSD_FAULT_DIR": directory, "WSD_FAULT_CONTROL": controlPath,
            "WSD_FAULT_LOG": logPath,
        ]
    }

    /// Makes `operation` fail with `errno` on paths containing `substring` from the next call on.
    func set(_ fault: Fault) throws {
        try Data("\(fault.operation.rawValue) \(fault.errno.name) \(fault.substring)\n".utf8)
            .write(to: URL(fileURLWithPath: controlPath))
    }

    /// Lets every call through again.
    func lift() throws { try Data().write(to: URL(fileURLWithPath: controlPath)) }

    /// The failures injected so far, a line each: `<operation> <errno> <path>`.
    func injected() -> [String] {
        ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// How many failures of `fault` were injected so far.
    func count(_ fault: Fault) -> Int {
        injected().filter { $0.hasPrefix("\(fault.operation.rawValue) \(fault.errno.name) ") }.count
    }
}

/// One fault of the matrix: a call, the error it fails with, and the path it concerns.
struct Fault: CustomStringConvertible, Sendable {
    /// The calls the shim can fail (see `faultshim.c`).
    enum Operation: String, CaseIterable, Sendable {
        case openTemp = "open-temp"
        case write
        case shortWrite = "short-write"
        case fsyncTemp = "fsync-temp"
        case close
        case rename
        case openDirectory = "open-dir"
        case fsyncDirectory = "fsync-dir"
        case link

        /// Every call of the durable replace of a file, in the order it makes them.
        static let durableReplace: [Operation] = [
            .openTemp, .write, .shortWrite, .fsyncTemp, .close, .rename, .openDirectory, .fsyncDirectory,
        ]

        /// Whether a failure of this call leaves the new bytes already in place (only the directory fsync, after
        /// the rename): the file is then the old or the new version.
        var afterRename: Bool { self == .fsyncDirectory || self == .openDirectory }
    }

    /// The errors of the matrix.
    enum Errno: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case eio = "EIO"
        case enospc = "ENOSPC"
        case edquot = "EDQUOT"
        case erofs = "EROFS"
        var name: String { rawValue }
        var testDescription: String { rawValue }
    }

    var operation: Operation
    var errno: Errno
    /// A part of the path concerned (the temporary file's, or the rename's or link's target); empty for any.
    var substring: String

    var description: String { "\(operation.rawValue) × \(errno.name) on \(substring.isEmpty ? "any" : substring)" }
}
