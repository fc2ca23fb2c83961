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
    private var exitStatus: Int32?

    /// Spawns `path` with `arguments` and exactly `environment`; `descriptors` places parent descriptors at the
    /// given numbers in the child (as systemd passes sockets at 3, 4, …).
    package init(
        _ path: String, _ arguments: [String], environment: [String: String], outputPath: String,
        descriptors: [(source: Int32, target: Int32)] = []
    ) throws {
        self.outputPath = outputPath
        let output = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw TestSupportError(description: "open \(outputPath): \(errno)") }
        defer { close(output) }
        pid = try ProcessSpawn.spawn(
            path, arguments, environment: environment, output: output, descriptors: descriptors)
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }

    /// Sends `signal` to the child.
    package func send(_ signal: Int32) {
        kill(pid, signal)
    }

    /// Waits up to `timeout` for the child to exit; returns its exit status (128 + signal when killed), or `nil`
    /// if it is still running.
    package func wait(timeout: Duration) -> Int32? {
        if let exitStatus { return exitStatus }
        let deadline = ContinuousClock.now + timeout
        while true {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
                exitStatus = code
                return code
            }
            if ContinuousClock.now >= deadline { return nil }
            usleep(5_000)
        }
    }

    /// Waits up to `timeout` for the child to exit without holding a thread: polls with `waitpid(WNOHANG)` and
    /// sleeps the task in between (1 ms at first, backing off to 20 ms), so a short command returns quickly and a
    /// long wait leaves the cooperative pool free. Its exit status (128 + signal when killed), or `nil`.
    package func waitForExit(timeout: Duration) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        var pause = Duration.milliseconds(1)
        while true {
            if let status = wait(timeout: .zero) { return status }
            if ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: min(pause, deadline - ContinuousClock.now))
            pause = min(pause * 2, .milliseconds(20))
        }
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
