import Systemd

/// Where a configuration comes from: the config file, the environment and command-line flags.
package struct ConfigurationSources: Sendable {
    /// A value given on the command line, already typed by the argument parser.
    package enum Override: Sendable, Equatable {
        /// A string (paths, choices), or a flag's text for a whole-number key, which the loader parses and refuses
        /// with ``ConfigurationError/wrongType(key:expected:source:)`` when it is not one.
        case string(String)
        /// A whole number.
        case integer(Int)
    }

    /// The config file; `nil` for the default (`$CONFIGURATION_DIRECTORY/config.json`, else
    /// `/etc/workspaced/config.json`), which may be missing.
    package var configFile: String?
    /// The process environment (`WORKSPACED_*` overrides and systemd's directory variables).
    package var environment: [String: String]
    /// Command-line overrides by key name (`save.debounceMilliseconds`).
    package var overrides: [String: Override]

    /// Sources with the given parts.
    package init(configFile: String? = nil, environment: [String: String], overrides: [String: Override] = [:]) {
        self.configFile = configFile
        self.environment = environment
        self.overrides = overrides
    }

    /// The config file that will be read: the explicit one, or the default.
    package var resolvedConfigFile: String {
        if let configFile { return configFile }
        if let directory = firstPath(environment["CONFIGURATION_DIRECTORY"]) { return directory + "/config.json" }
        return "/etc/workspaced/config.json"
    }

    /// The systemd credentials of ``environment``'s `CREDENTIALS_DIRECTORY` (the secrets key, the replica's keys).
    ///
    /// Read from this snapshot, taken once in `main`, never from the live process environment: a read of
    /// `environ` on one thread while another changes it (`setenv`, `unsetenv`) can miss a variable that is there.
    package var credentials: Credentials {
        Credentials(environment: ServiceEnvironment(environment))
    }

    /// Whether a missing config file is an error (only when one was named explicitly).
    package var configFileIsRequired: Bool { configFile != nil }

    /// The first of systemd's colon-separated directory list, if set and not empty.
    func firstPath(_ value: String?) -> String? {
        guard let first = value?.split(separator: ":").first, !first.isEmpty else { return nil }
        return String(first)
    }
}
