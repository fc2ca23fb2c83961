import Foundation
import Logging
import StateStore
import Testing
import WorkspaceDaemon

@Suite("Daemon configuration")
struct ConfigurationTests {
    let directory: String

    init() throws {
        directory = FileManager.default.temporaryDirectory.path + "/workspaced-config-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    private func writeConfig(_ text: String) throws -> String {
        let path = directory + "/config.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func defaultsComeFromSystemdDirectoriesThenFixedPaths() async throws {
        let none = try await ConfigurationLoader.load(
            ConfigurationSources(environment: ["CONFIGURATION_DIRECTORY": directory]))
        #expect(none.stateDirectory == "/var/lib/workspaced")
        #expect(none.controlSocketPath == "/run/workspaced/control.sock")
        #expect(none.saveDebounce == .milliseconds(500))
        #expect(none.saveMaximumDelay == .seconds(5))
        #expect(none.corruptFilePolicy == .salvage)
        #expect(none.backupsKept == 3)
        #expect(none.logLevel == .info)
        #expect(none.apiMaximumBodyBytes == 1_048_576)
        let systemd = try await ConfigurationLoader.load(
            ConfigurationSources(environment: [
                "CONFIGURATION_DIRECTORY": directory, "STATE_DIRECTORY": "/var/lib/a:/var/lib/b",
                "RUNTIME_DIRECTORY": "/run/x",
            ]))
        #expect(systemd.stateDirectory == "/var/lib/a")
        #expect(systemd.controlSocketPath == "/run/x/control.sock")
        #expect(systemd.statePath == "/var/lib/a/workspace.json")
    }

    @Test func legacyStatePathDefaultsToTheOldLocationAndAnEmptyValueTurnsItOff() async throws {
        let none = try await ConfigurationLoader.load(
            ConfigurationSources(environment: ["CONFIGURATION_DIRECTORY": directory]))
        #expect(none.legacyStatePath == "/var/lib/workspace-state/state.json")
        #expect(none.legacyImport?.markerPath == "/var/lib/workspaced/imported-from-legacy")
        let path = try writeConfig(#"{"legacyStatePath": "/srv/old/state.json"}"#)
        let file = try await ConfigurationLoader.load(ConfigurationSources(configFile: path, environment: [:]))
        #expect(file.legacyStatePath == "/srv/old/state.json")
        let environment = try await ConfigurationLoader.load(
            ConfigurationSources(configFile: path, environment: ["WORKSPACED_LEGACY_STATE_PATH": ""]))
        #expect(environment.legacyStatePath == nil && environment.legacyImport == nil)
        let flag = try await ConfigurationLoader.load(
            ConfigurationSources(
                configFile: path, environment: [:], overrides: ["legacyStatePath": .string("/x/state.json")]))
        #expect(flag.legacyStatePath == "/x/state.json")
        let relative = try writeConfig(#"{"legacyStatePath": "old/state.json"}"#)
        await #expect {
            try await ConfigurationLoader.load(ConfigurationSources(configFile: relative, environment: [:]))
        } throws: { error in
            "\(error)".contains("legacyStatePath") && "\(error)".contains("absolute path")
        }
    }

    /// Loads with the state directory `state` and `legacyStatePath` = `legacy`.
    private func load(state: String, legacy: String) async throws -> DaemonConfiguration {
        try await ConfigurationLoader.load(
            ConfigurationSources(
                configFile: try writeConfig("{}"), environment: [:],
                overrides: ["stateDirectory": .string(state), "legacyStatePath": .string(legacy)]))
    }

    /// Expects `legacy` to be refused as the state file of `state`, naming the key.
    private func expectRefused(
        state: String, legacy: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        await #expect(sourceLocation: sourceLocation) {
            try await load(state: state, legacy: legacy)
        } throws: { error in
            guard case .invalidValue(let key, let value, let reason) = error as? ConfigurationError else {
                return false
            }
            return key == "legacyStatePath" && value == legacy && reason.contains("is the state file")
                && "\(error)".contains("legacyStatePath")
        }
    }

    @Test func legacyStatePathAtTheStateFileItselfIsRefusedNamingTheKey() async throws {
        let state = directory + "/state"
        // The state file does not exist yet: the paths are compared once normalized.
        await expectRefused(state: state, legacy: state + "/workspace.json")
        await expectRefused(state: state, legacy: directory + "//state/./workspace.json")
        await expectRefused(state: state, legacy: state + "/../state/workspace.json")
        await expectRefused(state: state + "/", legacy: state + "/workspace.json")
        // A symbolic link to the state directory, which exists while the file does not.
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory + "/alias", withDestinationPath: state)
        await expectRefused(state: state, legacy: directory + "/alias/workspace.json")
        await expectRefused(state: directory + "/alias", legacy: state + "/workspace.json")
        // Once the file exists: a symbolic link to it and a hard link to it are the same file.
        try Data("{}".utf8).write(to: URL(fileURLWithPath: state + "/workspace.json"))
        try FileManager.default.createSymbolicLink(
            atPath: directory + "/link.json", withDestinationPath: state + "/workspace.json")
        await expectRefused(state: state, legacy: directory + "/link.json")
        try FileManager.default.linkItem(atPath: state + "/workspace.json", toPath: directory + "/hard.json")
        await expectRefused(state: state, legacy: directory + "/hard.json")
        // Another file, even next to it or with the same name elsewhere, is an ordinary legacy path.
        for other in [state + "/state.json", directory + "/workspace.json", state + "/workspace.json.v1.bak"] {
            #expect(try await load(state: state, legacy: other).legacyStatePath == other)
        }
    }

    @Test func flagsBeatEnvironmentBeatFile() async throws {
        let path = try writeConfig(
            #"{"save": {"debounceMilliseconds": 100, "maximumDelayMilliseconds": 9000}, "logLevel": "debug", "backupsKept": 7}"#
        )
        let fileOnly = try await ConfigurationLoader.load(ConfigurationSources(configFile: path, environment: [:]))
        #expect(fileOnly.saveDebounce == .milliseconds(100))
        #expect(fileOnly.saveMaximumDelay == .milliseconds(9000))
        #expect(fileOnly.logLevel == .debug)
        #expect(fileOnly.backupsKept == 7)
        let environment = try await ConfigurationLoader.load(
            ConfigurationSources(
                configFile: path,
                environment: ["WORKSPACED_SAVE_DEBOUNCE_MILLISECONDS": "200", "WORKSPACED_LOG_LEVEL": "warning"]))
        #expect(environment.saveDebounce == .milliseconds(200))
        #expect(environment.logLevel == .warning)
        let flags = try await ConfigurationLoader.load(
            ConfigurationSources(
                configFile: path, environment: ["WORKSPACED_SAVE_DEBOUNCE_MILLISECONDS": "200"],
                overrides: ["save.debounceMilliseconds": .integer(300), "stateDirectory": .string("/srv/ws")]))
        #expect(flags.saveDebounce == .milliseconds(300))
        #expect(flags.stateDirectory == "/srv/ws")
        #expect(flags.backupsKept == 7)
    }

    @Test func aWholeNumberFlagIsParsedByTheLoaderAndABadOneNamesTheKey() async throws {
        let path = try writeConfig("{}")
        let parsed = try await ConfigurationLoader.load(
            ConfigurationSources(configFile: path, environment: [:], overrides: ["backupsKept": .string("9")]))
        #expect(parsed.backupsKept == 9)
        for text in ["nine", "9.5", "", "0x10"] {
            await #expect(
                throws: ConfigurationError.wrongType(
                    key: "save.debounceMilliseconds", expected: "a whole number", source: "the command line")
            ) {
                try await ConfigurationLoader.load(
                    ConfigurationSources(
                        configFile: path, environment: [:], overrides: ["save.debounceMilliseconds": .string(text)]))
            }
        }
    }

    @Test func theConnectionCapAndTheRequestTimeoutHaveDefaultsAndBounds() async throws {
        let none = try await ConfigurationLoader.load(
            ConfigurationSources(configFile: try writeConfig("{}"), environment: [:]))
        #expect(none.apiMaximumConnections == 2048)
        #expect(none.apiRequestTimeout == .seconds(30))
        let path = try writeConfig(#"{"api": {"maximumConnections": 100, "requestTimeoutMilliseconds": 2500}}"#)
        let file = try await ConfigurationLoader.load(ConfigurationSources(configFile: path, environment: [:]))
        #expect(file.apiMaximumConnections == 100)
        #expect(file.apiRequestTimeout == .milliseconds(2500))
        await #expect(
            throws: ConfigurationError.invalidValue(
                key: "api.maximumConnections", value: "8", reason: "must be in 16...65536")
        ) {
            try await ConfigurationLoader.load(
                ConfigurationSources(
                    configFile: path, environment: [ConfigurationKey.apiMaximumConnections.environmentVariable: "8"]))
        }
        await #expect(
            throws: ConfigurationError.invalidValue(
                key: "api.requestTimeoutMilliseconds", value: "50", reason: "must be in 100...600000")
        ) {
            try await ConfigurationLoader.load(
                ConfigurationSources(
                    configFile: path, environment: [ConfigurationKey.apiRequestTimeout.environmentVariable: "50"]))
        }
    }

    @Test func theBodyLimitComesFromFlagsThenEnvironmentThenFile() async throws {
        let path = try writeConfig(#"{"api": {"maximumBodyBytes": 4096}}"#)
        let file = try await ConfigurationLoader.load(ConfigurationSources(configFile: path, environment: [:]))
        #expect(file.apiMaximumBodyBytes == 4096)
        let variable = ConfigurationKey.apiMaximumBodyBytes.environmentVariable
        #expect(variable == "WORKSPACED_API_MAXIMUM_BODY_BYTES")
        let environment = try await ConfigurationLoader.load(
            ConfigurationSources(configFile: path, environment: [variable: "1024"]))
        #expect(environment.apiMaximumBodyBytes == 1024)
        let flag = try await ConfigurationLoader.load(
            ConfigurationSources(
                configFile: path, environment: [variable: "1024"],
                overrides: ["api.maximumBodyBytes": .integer(67_108_864)]))
        #expect(flag.apiMaximumBodyBytes == 67_108_864)
        await #expect(
            throws: ConfigurationError.invalidValue(
                key: "api.maximumBodyBytes", value: "100", reason: "must be in 1024...67108864")
        ) {
            try await ConfigurationLoader.load(ConfigurationSources(configFile: path, environment: [variable: "100"]))
        }
    }

    static let refused: [(String, ConfigurationError)] = [
        (#"{"save": 5}"#, .wrongType(key: "save", expected: "an object", source: "FILE")),
        (#"{"backupsKept": "three"}"#, .wrongType(key: "backupsKept", expected: "a whole number", source: "FILE")),
        (#"{"stateDirectory": 12}"#, .wrongType(key: "stateDirectory", expected: "a string", source: "FILE")),
        (#"{"backupsKept": 0}"#, .invalidValue(key: "backupsKept", value: "0", reason: "must be in 1...100")),
        (
            #"{"api": {"maximumBodyBytes": 1023}}"#,
            .invalidValue(key: "api.maximumBodyBytes", value: "1023", reason: "must be in 1024...67108864")
        ),
        (
            #"{"api": {"maximumBodyBytes": 67108865}}"#,
            .invalidValue(key: "api.maximumBodyBytes", value: "67108865", reason: "must be in 1024...67108864")
        ),
        (
            #"{"api": {"maximumBodyBytes": "1 MiB"}}"#,
            .wrongType(key: "api.maximumBodyBytes", expected: "a whole number", source: "FILE")
        ),
        (
            #"{"logLevel": "loud"}"#,
            .invalidValue(
                key: "logLevel", value: "loud",
                reason: "must be one of trace, debug, info, notice, warning, error, critical")
        ),
        (
            #"{"stateDirectory": "relative/dir"}"#,
            .invalidValue(
                key: "stateDirectory", value: "relative/dir", reason: "must be an absolute path")
        ),
        (
            #"{"save": {"debounceMilliseconds": 2000, "maximumDelayMilliseconds": 1000}}"#,
            .invalidValue(
                key: "save.maximumDelayMilliseconds", value: "1000",
                reason: "must be at least save.debounceMilliseconds (2000)")
        ),
    ]

    @Test(arguments: refused)
    func aBadFileIsRefusedNamingTheKey(text: String, expected: ConfigurationError) async throws {
        let path = try writeConfig(text)
        let expectedHere: ConfigurationError
        switch expected {
        case .wrongType(let key, let type, _): expectedHere = .wrongType(key: key, expected: type, source: path)
        default: expectedHere = expected
        }
        await #expect(throws: expectedHere) {
            try await ConfigurationLoader.load(ConfigurationSources(configFile: path, environment: [:]))
        }
    }

    static let ignored: [(String, String, String?)] = [
        (#"{"stateDirectroy": "/x"}"#, "stateDirectroy", "stateDirectory"),
        (#"{"save": {"debounce": 5}}"#, "save.debounce", "save.debounceMilliseconds"),
        (#"{"api": {"maxBodyBytes": 2048}}"#, "api.maxBodyBytes", "api.maximumBodyBytes"),
        (#"{"snapshots": {"keep": 4}}"#, "snapshots", nil),
    ]

    /// An unknown key (a newer release's, or a typo) is ignored with a warning naming the closest known key; a
    /// strict load (`check-config`) refuses it with the same suggestion.
    @Test(arguments: ignored)
    func anUnknownKeyIsIgnoredNamingTheClosestKnownKey(text: String, key: String, suggestion: String?) async throws {
        let path = try writeConfig(#"{"backupsKept": 7, "# + text.dropFirst())
        let loaded = try await ConfigurationLoader.load(ConfigurationSources(configFile: path, environment: [:]))
        #expect(loaded.backupsKept == 7, "the known keys still apply")
        #expect(loaded.ignoredKeys == [IgnoredConfigurationKey(key: key, source: path, suggestion: suggestion)])
        await #expect(throws: ConfigurationError.unknownKey(key: key, source: path, suggestion: suggestion)) {
            try await ConfigurationLoader.load(ConfigurationSources(configFile: path, environment: [:]), strict: true)
        }
    }

    @Test func theClosestKeyIsFoundByEditDistance() {
        #expect(IgnoredConfigurationKey.editDistance("", "abc") == 3)
        #expect(IgnoredConfigurationKey.editDistance("kitten", "sitting") == 3)
        #expect(IgnoredConfigurationKey.editDistance("same", "same") == 0)
        #expect(IgnoredConfigurationKey.closest(to: "logLevl", among: ["logLevel", "backupsKept"]) == "logLevel")
        #expect(IgnoredConfigurationKey.closest(to: "colour", among: ["logLevel", "backupsKept"]) == nil)
    }

    @Test func badEnvironmentIsRefusedNamingTheVariable() async throws {
        let unknown = try await ConfigurationLoader.load(
            ConfigurationSources(environment: ["WORKSPACED_LOG_LEVL": "1", "CONFIGURATION_DIRECTORY": directory]))
        #expect(
            unknown.ignoredKeys == [
                IgnoredConfigurationKey(
                    key: "WORKSPACED_LOG_LEVL", source: "the environment", suggestion: "WORKSPACED_LOG_LEVEL")
            ])
        await #expect(
            throws: ConfigurationError.unknownKey(
                key: "WORKSPACED_LOG_LEVL", source: "the environment", suggestion: "WORKSPACED_LOG_LEVEL")
        ) {
            try await ConfigurationLoader.load(
                ConfigurationSources(environment: ["WORKSPACED_LOG_LEVL": "1", "CONFIGURATION_DIRECTORY": directory]),
                strict: true)
        }
        await #expect(
            throws: ConfigurationError.wrongType(
                key: "backupsKept", expected: "a whole number", source: "environment variable WORKSPACED_BACKUPS_KEPT")
        ) {
            try await ConfigurationLoader.load(
                ConfigurationSources(environment: [
                    "WORKSPACED_BACKUPS_KEPT": "many", "CONFIGURATION_DIRECTORY": directory,
                ]))
        }
        _ = try await ConfigurationLoader.load(
            ConfigurationSources(environment: ["WORKSPACED_SOCKET": "/x", "CONFIGURATION_DIRECTORY": directory]))
    }

    @Test func anExplicitMissingFileOrBrokenJSONIsRefused() async throws {
        await #expect(throws: ConfigurationError.self) {
            try await ConfigurationLoader.load(
                ConfigurationSources(configFile: directory + "/nope.json", environment: [:]))
        }
        let path = try writeConfig("{not json")
        await #expect(throws: ConfigurationError.self) {
            try await ConfigurationLoader.load(ConfigurationSources(configFile: path, environment: [:]))
        }
    }

    @Test func brokenJSONIsNamedByLineAndColumn() async throws {
        let path = try writeConfig("{\n  \"logLevel\": \"debug\"\n  \"backupsKept\": 2\n}\n")
        await #expect(
            throws: ConfigurationError.unreadableFile(
                path: path, reason: "not valid JSON at line 3, column 3: expected ',' or '}' after an object member")
        ) {
            try await ConfigurationLoader.load(ConfigurationSources(configFile: path, environment: [:]))
        }
    }

    @Test func environmentVariableNamesFollowTheKeys() {
        #expect(ConfigurationKey.saveDebounce.environmentVariable == "WORKSPACED_SAVE_DEBOUNCE_MILLISECONDS")
        #expect(ConfigurationKey.stateDirectory.environmentVariable == "WORKSPACED_STATE_DIRECTORY")
        #expect(ConfigurationKey.corruptFilePolicy.environmentVariable == "WORKSPACED_CORRUPT_FILE_POLICY")
        // Every key's variable, against the spelling by Characters that the byte-wise one replaced.
        for key in ConfigurationKey.all {
            var expected = "WORKSPACED"
            for component in key.name.split(separator: ".") {
                expected += "_"
                var previousWasLower = false
                for character in component {
                    if character.isUppercase && previousWasLower { expected += "_" }
                    expected += character.uppercased()
                    previousWasLower = character.isLowercase
                }
            }
            #expect(key.environmentVariable == expected, "\(key.name)")
        }
    }

    /// Several unknown keys, nested and repeated, are each reported once, in the order of the keys sorted at
    /// each level, whatever their order in the file.
    @Test func unknownKeysAreReportedOnceInSortedOrder() async throws {
        let path = try writeConfig(
            #"{"zeta": 1, "save": {"later": [1, 2], "debounce": 5}, "api": {"b": {}, "a": null}, "zeta": 2}"#)
        let loaded = try await ConfigurationLoader.load(ConfigurationSources(configFile: path, environment: [:]))
        #expect(loaded.ignoredKeys.map(\.key) == ["api.a", "api.b", "save.debounce", "save.later", "zeta"])
        #expect(loaded.ignoredKeys.allSatisfy { $0.source == path })
    }

    /// A file with a byte order mark and a trailing comma (which JSONSerialization, swift-configuration's parser,
    /// takes) loads, its unknown key reported, as before the keys were read without Foundation.
    @Test func aByteOrderMarkAndATrailingCommaAreTaken() async throws {
        for text in ["\u{FEFF}{\"backupsKept\": 3, \"typo\": 1}", "{\"backupsKept\": 3, \"typo\": 1,}"] {
            let path = try writeConfig(text)
            let loaded = try await ConfigurationLoader.load(ConfigurationSources(configFile: path, environment: [:]))
            #expect(loaded.backupsKept == 3)
            #expect(loaded.ignoredKeys.map(\.key) == ["typo"], "\(text)")
        }
    }

    @Test func aTopLevelThatIsNotAnObjectIsRefused() async throws {
        let path = try writeConfig("[1, 2]")
        await #expect(
            throws: ConfigurationError.unreadableFile(path: path, reason: "the top level is not a JSON object")
        ) {
            try await ConfigurationLoader.load(ConfigurationSources(configFile: path, environment: [:]))
        }
        for text in ["\"text\"", "12"] {
            let fragment = try writeConfig(text)
            await #expect(throws: ConfigurationError.self) {
                try await ConfigurationLoader.load(ConfigurationSources(configFile: fragment, environment: [:]))
            }
        }
    }

    /// `metrics.listen`: an IP and a port; a non-loopback address only with `metrics.allowRemote`.
    @Test func metricsListenIsAnIPAndPortOnLoopbackUnlessRemoteIsAllowed() async throws {
        func load(_ json: String) async throws -> DaemonConfiguration {
            try await ConfigurationLoader.load(
                ConfigurationSources(configFile: try writeConfig(json), environment: [:]))
        }
        let loopback = try await load(#"{"metrics": {"listen": "127.0.0.1:9464"}}"#)
        #expect(loopback.metricsListen == MetricsListenAddress("127.0.0.1:9464"))
        #expect(loopback.metricsListen?.host == "127.0.0.1" && loopback.metricsListen?.port == 9464)
        let six = try await load(#"{"metrics": {"listen": "[::1]:9100"}}"#)
        #expect(six.metricsListen?.host == "::1" && six.metricsListen?.isLoopback == true)
        #expect(try await load(#"{"metrics": {"listen": ""}}"#).metricsListen == nil)
        for bad in ["localhost:9464", "127.0.0.1", "127.0.0.1:0", "127.0.0.1:65536", "::1:9464", "[::1]", "1.2.3:80"] {
            await #expect {
                try await load(#"{"metrics": {"listen": "\#(bad)"}}"#)
            } throws: { error in
                guard case .invalidValue(let key, let value, let reason) = error as? ConfigurationError else {
                    return false
                }
                return key == "metrics.listen" && value == bad && reason.contains("IP:PORT")
            }
        }
        for remote in ["0.0.0.0:9464", "192.0.2.7:9464", "[::]:9464"] {
            await #expect {
                try await load(#"{"metrics": {"listen": "\#(remote)"}}"#)
            } throws: { error in
                guard case .invalidValue(let key, _, let reason) = error as? ConfigurationError else { return false }
                return key == "metrics.listen" && reason.contains("metrics.allowRemote")
            }
            let allowed = try await load(#"{"metrics": {"listen": "\#(remote)", "allowRemote": true}}"#)
            #expect(allowed.metricsListen?.isLoopback == false)
        }
        #expect(try await load(#"{"metrics": {"enabled": false}}"#).metricsEnabled == false)
    }

    @Test func theShippedDefaultConfigLoadsAndEqualsTheDefaults() async throws {
        let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("config/workspaced.json").path
        let loaded = try await ConfigurationLoader.load(ConfigurationSources(configFile: shipped, environment: [:]))
        let defaults = try await ConfigurationLoader.load(
            ConfigurationSources(environment: ["CONFIGURATION_DIRECTORY": directory]))
        #expect(loaded == defaults)
    }
}
