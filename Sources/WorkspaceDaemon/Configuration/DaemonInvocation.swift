import FoundationEssentials
import Glibc

/// How a running daemon was started: its command line and its environment as the kernel keeps them
/// (`/proc/PID/cmdline`, `/proc/PID/environ`: what it was executed with; the daemon never changes its
/// environment). `workspaced reload` rebuilds the daemon's ``ConfigurationSources`` from them, so that its check
/// reads what the daemon's own reload will read: the same `--config` and flags, the same `CONFIGURATION_DIRECTORY`
/// and `WORKSPACED_*` variables, even after a `systemctl daemon-reload` changed the unit's.
package struct DaemonInvocation: Sendable, Equatable {
    /// The command line, the program first.
    package var arguments: [String]
    /// The environment, by name.
    package var environment: [String: String]

    /// An invocation with the given parts.
    package init(arguments: [String], environment: [String: String]) {
        self.arguments = arguments
        self.environment = environment
    }

    /// The invocation of process `pid`.
    ///
    /// - Parameter proc: Where procfs is mounted.
    /// - Throws: ``DaemonInvocationError`` when either file cannot be read (no such process, or one of another
    ///   user: reading another process's environment takes the same user or root).
    package static func of(pid: pid_t, proc: String = "/proc") throws(DaemonInvocationError) -> DaemonInvocation {
        let arguments = try read("\(proc)/\(pid)/cmdline", pid: pid)
        guard !arguments.isEmpty else { throw .unreadable(pid: pid, path: "\(proc)/\(pid)/cmdline", errno: ESRCH) }
        var environment: [String: String] = [:]
        for entry in try read("\(proc)/\(pid)/environ", pid: pid) {
            guard let equals = entry.firstIndex(of: "=") else { continue }
            environment[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
        }
        return DaemonInvocation(arguments: arguments, environment: environment)
    }

    /// The NUL-terminated strings of a procfs file.
    private static func read(_ path: String, pid: pid_t) throws(DaemonInvocationError) -> [String] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(pid: pid, path: path, errno: errno) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(pid: pid, path: path, errno: errno)
            }
            if count == 0 { break }
            bytes += buffer[..<count]
        }
        if bytes.isEmpty { return [] }
        return bytes.split(separator: 0, omittingEmptySubsequences: false).dropLast(bytes.last == 0 ? 1 : 0)
            .map { String(decoding: $0, as: UTF8.self) }
    }
}

/// Why a running daemon's invocation could not be read.
package enum DaemonInvocationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A procfs file of the process could not be read.
    case unreadable(pid: pid_t, path: String, errno: Int32)

    /// A sentence naming the process, the file and the cause.
    package var description: String {
        switch self {
        case .unreadable(let pid, let path, let code):
            return "cannot read how process \(pid) was started (\(path)): \(String(cString: strerror(code))) "
                + "(errno \(code))"
        }
    }
}
