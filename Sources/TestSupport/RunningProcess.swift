import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A long-running child process for tests: spawned with an exact environment, its stdout and stderr going to a
/// file, signalled and waited for with a timeout. Killed with SIGKILL if still running when released.
package final class RunningProcess {
    /// The child's pid.
    package let pid: pid_t
    /// Where its stdout and stderr go.
    package let outputPath: String
    private var reaped: Int32?

    /// Spawns `path` with `arguments` and exactly `environment`; `descriptors` places parent descriptors at the
    /// given numbers in the child (as systemd passes sockets at 3, 4, …). With `stderrIdentity`, that variable is
    /// set to the `device:inode` of the child's stderr (the output file), as systemd sets `JOURNAL_STREAM` for a
    /// service whose stderr is the journal stream.
    package init(
        _ path: String, _ arguments: [String], environment: [String: String], outputPath: String,
        descriptors: [(source: Int32, target: Int32)] = [], stderrIdentity: String? = nil
    ) throws {
        self.outputPath = outputPath
        let output = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw TestSupportError(description: "open \(outputPath): \(errno)") }
        defer { close(output) }
        var environment = environment
        if let stderrIdentity {
            var info = stat()
            guard fstat(output, &info) == 0 else {
                throw TestSupportError(description: "fstat \(outputPath): \(errno)")
            }
            environment[stderrIdentity] = "\(info.st_dev):\(info.st_ino)"
        }
        pid = try ProcessSpawn.spawn(
            path, arguments, environment: environment, output: output, descriptors: descriptors)
    }

    deinit {
        if reaped == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }

    /// Sends `signal` to the child.
    package func send(_ signal: Int32) {
        kill(pid, signal)
    }

    /// The child's exit status (128 + signal when killed) if it has exited, `nil` while it runs; never waits.
    package var exitStatus: Int32? {
        if let reaped { return reaped }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        reaped = code
        return code
    }

    /// Waits up to `timeout` for the child to exit without holding a thread of the cooperative pool
    /// (``eventually(timeout:_:)`` around ``exitStatus``). Its exit status (128 + signal when killed), or `nil`.
    package func waitForExit(timeout: Duration = testDeadline) async -> Int32? {
        _ = await eventually(timeout: timeout) { exitStatus != nil }
        return exitStatus
    }

    /// Sends `signal` and waits up to `timeout` for the exit; its status, or `nil` if it still runs.
    package func stop(with signal: Int32 = SIGTERM, timeout: Duration = testDeadline) async -> Int32? {
        send(signal)
        return await waitForExit(timeout: timeout)
    }

    /// Everything the child wrote so far.
    package var output: String {
        (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }
}

/// Where the build products are.
package enum ProductPaths {
    /// The directory of the running test binary (the build products directory).
    package static var directory: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let path = count > 0 ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "."
        return String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
    }

    /// An executable built next to the test binary.
    package static func executable(_ name: String) -> String { directory + "/" + name }
}
