import ArgumentParser
import FoundationEssentials
import Glibc
import Logging
import WorkspaceAPI
import WorkspaceDaemon

/// The unit's `ExecReload=`: checks the configuration the running daemon will read, asks it to reload (SIGHUP),
/// and fails when the configuration is rejected, so that `systemctl reload` does. `kill -HUP` alone returned 0 for
/// a configuration the daemon then refused (systemd 252 has no `Type=notify-reload` to report it).
struct Reload: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reload",
        abstract: "Ask the running daemon to re-read its configuration (SIGHUP); exit 78 when it rejects it.",
        discussion: """
            The check reads what the daemon reads: its command line and environment are taken from \
            /proc/PID, so the same --config, flags and WORKSPACED_* variables apply. The signal is sent either \
            way: a rejected configuration leaves the previous one in force, and the daemon says so in its STATUS \
            line and the journal. Exit 0 when the configuration is accepted (each key it ignores is printed as a \
            warning: line), 78 naming the key when it is rejected, 69 when the daemon process cannot be read or \
            signalled. The unit runs it as ExecReload=workspaced reload --pid $MAINPID.
            """)

    @Option(help: ArgumentHelp("The daemon's process id (the unit's $MAINPID).", valueName: "pid"))
    var pid: Int32

    func validate() throws {
        guard pid > 0 else { throw ValidationError("--pid must be a process id, not \(pid)") }
    }

    func run() async throws {
        // The same logging as the daemon: under systemd, journal entries with SYSLOG_IDENTIFIER=workspaced and the
        // CODE_* fields (ExecReload='s output is the unit's journal), standard error elsewhere.
        _ = DaemonLogging.bootstrap(level: .info)
        let logger = Logger(label: "workspaced.reload")
        let sources: ConfigurationSources
        do {
            sources = try Self.daemonSources(pid: pid)
        } catch {
            logger.error("workspaced reload: \(error)")
            throw ExitCode(ExitStatus.unavailable.rawValue)
        }
        let verdict: Result<DaemonConfiguration, ConfigurationError>
        do {
            verdict = .success(try await ConfigurationLoader.load(sources))
        } catch {
            verdict = .failure(error)
        }
        guard kill(pid, SIGHUP) == 0 else {
            let code = errno
            logger.error(
                "workspaced reload: cannot signal process \(pid): \(String(cString: strerror(code))) (errno \(code))")
            throw ExitCode(ExitStatus.unavailable.rawValue)
        }
        switch verdict {
        case .success(let configuration):
            for ignored in configuration.ignoredKeys { logger.warning("warning: \(ignored)") }
            logger.info("workspaced reload: configuration accepted; process \(pid) is reloading it")
        case .failure(let error):
            logger.error("workspaced reload: configuration rejected, the daemon keeps the previous one: \(error)")
            throw ExitCode(ConfigurationError.exitCode)
        }
    }

    /// The configuration sources of the daemon running as `pid`: its own command line, parsed as `workspaced`
    /// parses it, and its own environment. A process whose program is not named as this one is not parsed (an
    /// empty command line of another program would parse as `workspaced run`), and gets no signal.
    static func daemonSources(pid: Int32) throws -> ConfigurationSources {
        let invocation = try DaemonInvocation.of(pid: pid)
        let program = { (path: String) in path.split(separator: "/").last.map(String.init) ?? path }
        guard let first = invocation.arguments.first, program(first) == program(CommandLine.arguments[0]) else {
            throw NotADaemon(pid: pid, arguments: invocation.arguments)
        }
        let command: any ParsableCommand
        do {
            command = try Workspaced.parseAsRoot(Array(invocation.arguments.dropFirst()))
        } catch {
            throw NotADaemon(pid: pid, arguments: invocation.arguments)
        }
        guard let run = command as? Run else { throw NotADaemon(pid: pid, arguments: invocation.arguments) }
        return run.options.sources(environment: invocation.environment)
    }

}

/// The process `workspaced reload` was pointed at is not a `workspaced run`.
struct NotADaemon: Error, CustomStringConvertible {
    /// The process id given.
    let pid: Int32
    /// Its command line.
    let arguments: [String]

    var description: String {
        "process \(pid) is not a workspaced daemon (its command line: \(arguments.joined(separator: " ")))"
    }
}
