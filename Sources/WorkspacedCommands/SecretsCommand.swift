import ArgumentParser
import FoundationEssentials
import WorkspaceDaemon

/// `workspaced secrets check | rekey | reset`: the secret store offline (stop the daemon first: they take the
/// store's lock).
struct SecretsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "secrets",
        abstract: "Check, re-encrypt or reset the secret store (installation record and API tokens) offline.",
        subcommands: [Check.self, Rekey.self, Reset.self])

    /// The state directory and the current key, as the daemon would find them.
    struct Location: ParsableArguments {
        @OptionGroup var options: ConfigOptions

        @Option(
            help: ArgumentHelp(
                "The current key (32 raw bytes or base64); default: the credential secrets-key when "
                    + "$CREDENTIALS_DIRECTORY has it, else secrets.key in the state directory.", valueName: "file"),
            completion: .file())
        var key: String?

        /// `--state-directory`, else the configured state directory (environment, config file, default), as for
        /// the other offline tools.
        func stateDirectory() async throws -> String {
            try await StateDirectoryOptions.resolve(
                explicit: options.stateDirectory, sources: options.sources(), tool: "secrets")
        }
    }

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Open the store as the daemon would; exit 0 readable, 65 unreadable (saying why), 66 none yet.")
        @OptionGroup var location: Location

        func run() async throws {
            let directory = try await location.stateDirectory()
            try finish(OfflineTools.secretsCheck(stateDirectory: directory, keyFile: location.key))
        }
    }

    struct Rekey: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rekey",
            abstract: "Re-encrypt the store under a new key; with the key file, generate it and replace the file.")
        @OptionGroup var location: Location

        @Option(
            help: ArgumentHelp(
                "The new key (32 raw bytes or base64); required when the key is a credential.", valueName: "file"),
            completion: .file())
        var newKey: String?

        func run() async throws {
            let directory = try await location.stateDirectory()
            try finish(
                OfflineTools.secretsRekey(
                    stateDirectory: directory, keyFile: location.key, newKeyPath: newKey))
        }
    }

    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset",
            abstract: "Start a new secret store: move secrets.json.enc aside, remove installation.json (needs --yes).")
        @OptionGroup var location: Location

        @Flag(help: "Really reset: every token is lost and the next start makes a new installation id.")
        var yes = false

        func run() async throws {
            let directory = try await location.stateDirectory()
            try finish(OfflineTools.secretsReset(stateDirectory: directory, confirmed: yes))
        }
    }
}
