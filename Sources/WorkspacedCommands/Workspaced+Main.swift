import ArgumentParser
import FoundationEssentials
import Glibc
import Systemd
import WorkspaceDaemon

extension Workspaced {
    /// Parses the process's arguments and runs the command they name, a ``SeamedCommand`` with `seams`; on an
    /// error, prints it and exits as argument-parser's `main` does (64 for a bad command line). `run`'s usual
    /// command line (``RunCommandLine``) goes straight to ``Run``, without argument-parser.
    package static func main(seams: WorkspacedSeams) async {
        if let commandLine = RunCommandLine(arguments: CommandLine.arguments.dropFirst()) {
            do {
                // The environment read from `environ`: Foundation's ProcessInfo costs the start 0.07 ms to make.
                try await Run.run(
                    sources: commandLine.sources(environment: ServiceEnvironment.process().variables), seams: seams)
            } catch {
                exit(withError: error)
            }
            return
        }
        do {
            var command = try await asyncParseAsRoot()
            if let seamed = command as? any SeamedCommand {
                do {
                    try seamed.validate(seams: seams)
                } catch let error as ValidationError {
                    exit(error, of: type(of: seamed))
                }
                try await seamed.run(seams: seams)
            } else if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }

    /// Prints `error` as argument-parser prints an error of `subcommand`'s `validate()`: the message, the
    /// subcommand's usage and where its help is; exits 64. (`exit(withError:)` would show the root's usage.)
    static func exit(_ error: ValidationError, of subcommand: any ParsableCommand.Type) -> Never {
        let name = [configuration.commandName, subcommand.configuration.commandName].compactMap { $0 }
        let usage = usageString(for: subcommand).replacing("\n", with: "\n       ")
        let text = """
            Error: \(error.message)
            Usage: \(usage)
              See '\(name.joined(separator: " ")) --help' for more information.

            """
        LineWriter.write(text, to: STDERR_FILENO)
        Glibc.exit(ExitCode.validationFailure.rawValue)
    }
}
