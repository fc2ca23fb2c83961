import ArgumentParser
import Foundation
import WorkspaceDaemon

/// `ExecStartPre=+workspaced stage-legacy`: copies a legacy state file the sandboxed daemon cannot read into the
/// state directory for the one-time import. Exits 0 unless the configuration is invalid (78), so a failure here
/// never keeps the workspace from being served: the daemon then says why the import could not run.
struct StageLegacy: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stage-legacy",
        abstract: "As root before the daemon starts: copy legacyStatePath into the state directory for its import.")

    @OptionGroup var options: ConfigOptions

    func run() async throws {
        let configuration: DaemonConfiguration
        do {
            configuration = try await ConfigurationLoader.load(options.sources())
        } catch {
            FileHandle.standardError.write(Data("workspaced stage-legacy: \(error)\n".utf8))
            throw ExitCode(ConfigurationError.exitCode)
        }
        let outcome = LegacyStaging.stage(configuration)
        let line = "workspaced stage-legacy: \(outcome)\n"
        if case .failed = outcome {
            FileHandle.standardError.write(Data(("<4>" + line).utf8))
        } else {
            FileHandle.standardError.write(Data(line.utf8))
        }
    }
}
