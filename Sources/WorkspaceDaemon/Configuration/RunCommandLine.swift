/// `workspaced run`'s command line read without argument-parser, when it holds nothing but `run`'s own options.
///
/// Every start of the daemon pays for its command line: argument-parser builds the tree of all thirteen
/// subcommands and checks for a completion-script request, about 2.2 ms of a 15 ms start on an empty workspace
/// (`make bench`'s fixed start), most of it the Swift runtime looking up the conformances of the types it decodes.
/// A service's command line is `run` and a few `--flag value` pairs, the flags of ``ConfigurationKey/flag`` (the
/// ones `workspaced`'s `ConfigOptions` parses, which `workspaced configuration-manual` checks). This reads exactly
/// that and declines anything else, which argument-parser then reads (and reports, when it is wrong) as before.
package struct RunCommandLine: Equatable, Sendable {
    /// `--config`, when given.
    package var configFile: String?
    /// The flags given, by configuration key name, as `workspaced`'s `ConfigOptions` makes them.
    package var overrides: [String: ConfigurationSources.Override]

    /// Reads `arguments` (without the program's name); `nil` unless they are an optional `run` followed only by
    /// `--flag value` or `--flag=value` pairs of `run`'s flags, each at most once, no value starting with `-`.
    /// Declined, and so left to argument-parser: help and version requests, other subcommands, unknown or
    /// repeated flags, a flag without its value.
    package init?(arguments: some Collection<String>) {
        var remaining = arguments[...]
        if remaining.first == "run" { remaining = remaining.dropFirst() }
        var configFile: String?
        var overrides: [String: ConfigurationSources.Override] = [:]
        var seen: Set<String> = []
        while let argument = remaining.popFirst() {
            guard argument.hasPrefix("--") else { return nil }
            let flag: String
            let value: String
            if let equals = argument.firstIndex(of: "=") {
                flag = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            } else {
                guard let next = remaining.popFirst() else { return nil }
                flag = argument
                value = next
            }
            guard !value.hasPrefix("-"), seen.insert(flag).inserted else { return nil }
            if flag == "--config" {
                configFile = value
            } else if let key = Self.keysByFlag[flag] {
                overrides[key.name] = .string(value)
            } else {
                return nil
            }
        }
        self.configFile = configFile
        self.overrides = overrides
    }

    /// The configuration sources these flags give, with `environment`.
    package func sources(environment: [String: String]) -> ConfigurationSources {
        ConfigurationSources(configFile: configFile, environment: environment, overrides: overrides)
    }

    /// The configuration keys a `run` flag sets, by flag (`--state-directory`).
    private static let keysByFlag: [String: ConfigurationKey] = Dictionary(
        uniqueKeysWithValues: ConfigurationKey.all.compactMap { key in key.flag.map { ($0, key) } })
}
