#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// A finished child process: its pid, exit status and combined stdout/stderr.
struct ChildResult {
    var pid: pid_t
    var exitStatus: Int32
    var output: String

    /// The output lines.
    var lines: [String] { output.split(separator: "\n").map(String.init) }

    /// The value of the first `key=value` line with that key.
    func value(_ key: String) -> String? {
        lines.first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
    }
}

struct ChildProcessError: Error, CustomStringConvertible {
    var description: String
}

/// Runs programs to completion through ``TestSupport/ProcessSpawn``, reading their output.
enum ChildProcess {
    /// The variables a test child never inherits from the test process.
    static let scrubbed: Set<String> = [
        "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES",
        "INVOCATION_ID", "JOURNAL_STREAM", "CREDENTIALS_DIRECTORY",
    ]

    /// The test process environment without ``scrubbed``, with `overrides` applied.
    static func environment(_ overrides: [String: String]) -> [String: String] {
        var variables = ProcessEnvironment.variables().filter { !scrubbed.contains($0.key) }
        variables.merge(overrides) { $1 }
        return variables
    }

    /// The `environment` value replaced by the child's stderr `device:inode`, as systemd sets `JOURNAL_STREAM`.
    static let stderrIdentityPlaceholder = "<stderr device:inode>"

    /// Runs `path` with `arguments` to completion; `descriptors` maps a parent descriptor to the child's number.
    /// A variable whose value is ``stderrIdentityPlaceholder`` gets the identity of the child's stderr.
    static func run(
        _ path: String, _ arguments: [String], environment: [String: String],
        descriptors: [(source: Int32, target: Int32)] = []
    ) throws -> ChildResult {
        var pipeEnds: [Int32] = [0, 0]
        guard closeOnExecPipe(&pipeEnds) == 0 else { throw ChildProcessError(description: "pipe: \(errno)") }
        var info = stat()
        fstat(pipeEnds[1], &info)
        let environment = environment.mapValues {
            $0 == stderrIdentityPlaceholder ? "\(info.st_dev):\(info.st_ino)" : $0
        }
        let pid: pid_t
        do {
            pid = try ProcessSpawn.spawn(
                path, arguments, environment: environment, output: pipeEnds[1], descriptors: descriptors)
        } catch {
            close(pipeEnds[0])
            close(pipeEnds[1])
            throw ChildProcessError(description: "\(error)")
        }
        close(pipeEnds[1])
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            output += chunk[0..<count]
        }
        close(pipeEnds[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return ChildResult(pid: pid, exitStatus: exitStatus, output: String(decoding: output, as: UTF8.self))
    }
}

/// The test process environment, read once per call.
enum ProcessEnvironment {
    static func variables() -> [String: String] {
        var variables: [String: String] = [:]
        var cursor = environ
        while let entry = cursor.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            cursor += 1
        }
        return variables
    }
}

/// A connected pair of descriptors, close-on-exec from the start (pipe2 needs _GNU_SOURCE, which Glibc's module
/// does not define), so a child spawned concurrently by another test never inherits the write end.
func closeOnExecPipe(_ ends: inout [Int32]) -> Int32 {
    socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends)
}
