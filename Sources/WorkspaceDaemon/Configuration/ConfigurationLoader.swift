import Configuration
import FoundationEssentials
import Glibc
import Logging
import StateJSON
import StateStore

/// Resolves a ``DaemonConfiguration`` from its sources with swift-configuration (flags, then `WORKSPACED_*`
/// variables, then the JSON file, then defaults). A known key with a value it cannot use is refused, naming the
/// key; an unknown key is ignored with a warning (``DaemonConfiguration/ignoredKeys``), as systemd does, so that a
/// key a newer release added does not stop this one after a rollback, unless `strict` asks for a refusal.
package enum ConfigurationLoader {
    /// Environment variables with the `WORKSPACED_` prefix that are not daemon keys but are allowed
    /// (`WORKSPACED_SOCKET` is read by `workspacectl`).
    static let foreignVariables: Set<String> = ["WORKSPACED_SOCKET"]

    /// Loads, validates and returns the configuration.
    ///
    /// - Parameter strict: Refuse unknown keys (``ConfigurationError/unknownKey(key:source:suggestion:)``)
    ///   instead of ignoring them with a warning: `workspaced check-config`, for CI.
    /// - Throws: ``ConfigurationError`` naming the offending key and its source.
    package static func load(
        _ sources: ConfigurationSources, strict: Bool = false
    ) async throws(ConfigurationError) -> DaemonConfiguration {
        let filePath = sources.resolvedConfigFile
        // stat(2), as FileManager's fileExists(atPath:) does (following a symbolic link), without its set-up.
        var status = stat()
        let fileExists = stat(filePath, &status) == 0
        if !fileExists && sources.configFileIsRequired {
            throw .unreadableFile(path: filePath, reason: "no such file")
        }
        let file = fileExists ? try readConfigurationFile(filePath) : nil
        var ignored: [IgnoredConfigurationKey] = []
        if let file { ignored = try unknownFileKeys(file.data, strict: file.strict, path: filePath) }
        ignored += unknownEnvironmentKeys(sources.environment)
        if strict, let first = ignored.first {
            throw .unknownKey(key: first.key, source: first.source, suggestion: first.suggestion)
        }

        var overrides: [AbsoluteConfigKey: ConfigValue] = [:]
        for (name, value) in sources.overrides {
            switch value {
            case .string(let text):
                // A flag's text for a whole-number key is parsed here, so a bad one is refused like a bad file
                // value (exit 78 naming the key), not by the argument parser.
                if case .integer = ConfigurationKey.all.first(where: { $0.name == name })?.kind {
                    guard let number = Int(text.trimmingBlanks()) else {
                        throw .wrongType(key: name, expected: "a whole number", source: "the command line")
                    }
                    overrides[absoluteKey(name)] = ConfigValue(.int(number), isSecret: false)
                } else {
                    overrides[absoluteKey(name)] = ConfigValue(.string(text), isSecret: false)
                }
            case .integer(let number): overrides[absoluteKey(name)] = ConfigValue(.int(number), isSecret: false)
            }
        }
        var providers: [any ConfigProvider] = [InMemoryProvider(name: "command line", values: overrides)]
        if sources.environment.keys.contains(where: { $0.hasPrefix("WORKSPACED_") }) {
            // Only then can the environment provide a key. (Its provider spells each key's variable with Unicode
            // letter tests on every lookup: 0.22 ms of a start that sets none.)
            providers.append(
                EnvironmentVariablesProvider(environmentVariables: sources.environment).prefixKeys(with: "workspaced"))
        }
        if let file {
            do {
                let values = try ConfigurationFileSnapshot(strict: file.strict, providerName: filePath)
                providers.append(ConfigurationFileProvider(snapshotValue: values))
            } catch {
                throw .unreadableFile(path: filePath, reason: "\(error)")
            }
        }
        let reader = ValueReader(
            reader: ConfigReader(providers: providers), providers: providers, sources: sources, filePath: filePath)
        var configuration = try resolve(reader, sources: sources)
        configuration.ignoredKeys = ignored
        return configuration
    }

    private static func resolve(
        _ reader: ValueReader, sources: ConfigurationSources
    ) throws(ConfigurationError)
        -> DaemonConfiguration
    {
        let stateDirectory =
            try reader.path(.stateDirectory)
            ?? sources.firstPath(sources.environment["STATE_DIRECTORY"]) ?? "/var/lib/workspaced"
        let socket =
            try reader.path(.controlSocket)
            ?? sources.firstPath(sources.environment["RUNTIME_DIRECTORY"]).map { $0 + "/control.sock" }
            ?? "/run/workspaced/control.sock"
        let debounce = try reader.integer(.saveDebounce) ?? ConfigurationKey.saveDebounce.integerDefault
        let maximumDelay = try reader.integer(.saveMaximumDelay) ?? ConfigurationKey.saveMaximumDelay.integerDefault
        guard maximumDelay >= debounce else {
            throw .invalidValue(
                key: ConfigurationKey.saveMaximumDelay.name, value: "\(maximumDelay)",
                reason: "must be at least save.debounceMilliseconds (\(debounce))")
        }
        let policy = CorruptFilePolicy(
            rawValue: try reader.choice(.corruptFilePolicy) ?? ConfigurationKey.corruptFilePolicy.textDefault)!
        let fallback = CorruptFileFallback(
            rawValue: try reader.choice(.corruptFileFallback) ?? ConfigurationKey.corruptFileFallback.textDefault)!
        let level = Logger.Level(rawValue: try reader.choice(.logLevel) ?? ConfigurationKey.logLevel.textDefault)!
        let legacyStatePath =
            try reader.optionalPath(.legacyStatePath) ?? ConfigurationKey.legacyStatePath.textDefault
        if let legacyStatePath {
            try refuseLegacyPathAtTheStateFile(legacyStatePath, stateDirectory: stateDirectory)
        }
        let history = HistoryConfiguration(
            keepSeconds: try reader.integer(.historyKeepSeconds) ?? ConfigurationKey.historyKeepSeconds.integerDefault,
            maximumByteCount: try reader.integer(.historyMaximumBytes)
                ?? ConfigurationKey.historyMaximumBytes.integerDefault)
        let replica = try resolveReplica(reader, history: history)
        var configuration = DaemonConfiguration(
            stateDirectory: stateDirectory,
            controlSocketPath: socket,
            saveDebounce: .milliseconds(debounce),
            saveMaximumDelay: .milliseconds(maximumDelay),
            corruptFilePolicy: policy,
            corruptFileFallback: fallback,
            backupsKept: try reader.integer(.backupsKept) ?? ConfigurationKey.backupsKept.integerDefault,
            history: history,
            crashedLoadLimit: try reader.integer(.crashedLoadLimit) ?? ConfigurationKey.crashedLoadLimit.integerDefault,
            legacyStatePath: legacyStatePath,
            logLevel: level,
            apiMaximumBodyBytes: try reader.integer(.apiMaximumBodyBytes)
                ?? ConfigurationKey.apiMaximumBodyBytes.integerDefault,
            apiMaximumConnections: try reader.integer(.apiMaximumConnections)
                ?? ConfigurationKey.apiMaximumConnections.integerDefault,
            apiRequestTimeout: .milliseconds(
                try reader.integer(.apiRequestTimeout) ?? ConfigurationKey.apiRequestTimeout.integerDefault),
            access: AccessConfiguration(
                readUsers: try reader.ids(.readUsers, resolve: AccountLookup.userID),
                readGroups: try reader.ids(.readGroups, resolve: AccountLookup.groupID),
                writeUsers: try reader.ids(.writeUsers, resolve: AccountLookup.userID),
                writeGroups: try reader.ids(.writeGroups, resolve: AccountLookup.groupID)))
        configuration.replica = replica
        configuration.scrubIntervalHours =
            try reader.integer(.scrubIntervalHours) ?? ConfigurationKey.scrubIntervalHours.integerDefault
        configuration.metricsEnabled = try reader.boolean(.metricsEnabled) ?? true
        configuration.metricsAllowRemote = try reader.boolean(.metricsAllowRemote) ?? false
        configuration.metricsListen = try resolveMetricsListen(reader, allowRemote: configuration.metricsAllowRemote)
        configuration.metricsTextfile = try reader.optionalPath(.metricsTextfile) ?? nil
        configuration.metricsTextfileInterval = .seconds(
            try reader.integer(.metricsTextfileInterval) ?? ConfigurationKey.metricsTextfileInterval.integerDefault)
        return configuration
    }

    /// The `replica.*` keys; `nil` when `replica.url` is empty. A replica ships the history's files, so it needs
    /// the history on.
    private static func resolveReplica(
        _ reader: ValueReader, history: HistoryConfiguration
    ) throws(ConfigurationError) -> ReplicaSettings? {
        let url = try reader.text(.replicaURL) ?? ""
        guard !url.isEmpty else { return nil }
        guard let location = ReplicaSettings.location(of: url) else {
            throw .invalidValue(
                key: ConfigurationKey.replicaURL.name, value: url,
                reason: "must be s3://BUCKET/PREFIX (a valid bucket name), file:///absolute/path, or empty for off")
        }
        guard history.isEnabled else {
            throw .invalidValue(
                key: ConfigurationKey.replicaURL.name, value: url,
                reason: "replicates the history, which is off: set history.keepSeconds and history.maximumBytes above 0"
            )
        }
        var endpoint: URL?
        if let text = try reader.text(.replicaEndpoint), !text.isEmpty {
            guard let parsed = URL(string: text), ["http", "https"].contains(parsed.scheme ?? ""),
                parsed.host?.isEmpty == false, parsed.query == nil
            else {
                throw .invalidValue(
                    key: ConfigurationKey.replicaEndpoint.name, value: text,
                    reason: "must be an http:// or https:// URL of the S3 service, or empty for AWS")
            }
            endpoint = parsed
        }
        let region = try reader.text(.replicaRegion) ?? ConfigurationKey.replicaRegion.textDefault
        guard !region.isEmpty,
            region.utf8.allSatisfy({
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (0x30...0x39).contains($0)
                    || $0 == UInt8(ascii: "-")
            })
        else {
            throw .invalidValue(
                key: ConfigurationKey.replicaRegion.name, value: region,
                reason: "must be a region name: lower-case letters, digits and -")
        }
        return ReplicaSettings(
            location: location, endpoint: endpoint, region: region,
            syncInterval: .milliseconds(
                try reader.integer(.replicaSyncInterval) ?? ConfigurationKey.replicaSyncInterval.integerDefault),
            durableAcknowledgement: try reader.boolean(.replicaDurableAcknowledgement) ?? false,
            encryption: ReplicaSettings.Encryption(
                rawValue: try reader.choice(.replicaEncryption) ?? ConfigurationKey.replicaEncryption.textDefault)!,
            restoreIfMissing: try reader.boolean(.replicaRestoreIfMissing) ?? false,
            localMaximumBytes: try reader.integer(.replicaLocalMaximumBytes)
                ?? ConfigurationKey.replicaLocalMaximumBytes.integerDefault)
    }

    /// `metrics.listen`: `nil` when empty or not set; a non-loopback address only with `metrics.allowRemote`.
    private static func resolveMetricsListen(
        _ reader: ValueReader, allowRemote: Bool
    ) throws(ConfigurationError) -> MetricsListenAddress? {
        guard let text = try reader.text(.metricsListen), !text.isEmpty else { return nil }
        guard let address = MetricsListenAddress(text) else {
            throw .invalidValue(
                key: ConfigurationKey.metricsListen.name, value: text,
                reason: "must be IP:PORT with a port from 1 to 65535 (an IPv6 address in brackets: [::1]:9464), "
                    + "or empty for none")
        }
        guard address.isLoopback || allowRemote else {
            throw .invalidValue(
                key: ConfigurationKey.metricsListen.name, value: text,
                reason: "is not a loopback address: anyone who reaches it reads the metrics; set "
                    + "metrics.allowRemote = true to serve them there, or listen on 127.0.0.1")
        }
        return address
    }

    /// `legacyStatePath` must not name the state file itself (directly, through a symbolic link, `..` or repeated
    /// slashes): importing a file into itself is never meant, and it would warn at every start.
    static func refuseLegacyPathAtTheStateFile(
        _ legacyStatePath: String, stateDirectory: String
    ) throws(ConfigurationError) {
        let statePath = stateDirectory + "/workspace.json"
        guard SameFile.check(legacyStatePath, statePath) else { return }
        throw .invalidValue(
            key: ConfigurationKey.legacyStatePath.name, value: legacyStatePath,
            reason: "is the state file \(statePath) itself; set it to the earlier installation's state file, or "
                + "to \"\" to turn the import off")
    }

    /// Why `data` is not JSON, at the line and column of its first defect (what the state file's checks name too):
    /// `not valid JSON at line 3, column 5: expected ',' or '}' after an object member`. Foundation's own error, which
    /// names no place, only when the scanner finds no defect.
    static func invalidJSON(_ data: Data, error: any Error) -> String {
        guard let defect = JSONDefectScanner.firstDefect(in: data) else {
            return "not valid JSON (\(error))"
        }
        return "not valid JSON at line \(defect.line), column \(defect.column): \(defect.problem)"
    }

    /// The `WORKSPACED_*` variables that are not known keys.
    private static func unknownEnvironmentKeys(_ environment: [String: String]) -> [IgnoredConfigurationKey] {
        let variables = ConfigurationKey.all.map(\.environmentVariable)
        let known = Set(variables).union(foreignVariables)
        return environment.keys.sorted().filter { $0.hasPrefix("WORKSPACED_") && !known.contains($0) }.map {
            IgnoredConfigurationKey(
                key: $0, source: "the environment",
                suggestion: IgnoredConfigurationKey.closest(to: $0, among: variables.sorted()))
        }
    }

    static func absoluteKey(_ name: String) -> AbsoluteConfigKey {
        AbsoluteConfigKey(name.split(separator: ".").map(String.init))
    }
}

/// Reads typed values through swift-configuration and turns a conversion failure into a
/// ``ConfigurationError`` naming the key and the source that provided it.
private struct ValueReader {
    let reader: ConfigReader
    /// The same providers, asked directly whether a key is there at all.
    let providers: [any ConfigProvider]
    let sources: ConfigurationSources
    let filePath: String

    func source(of key: ConfigurationKey) -> String {
        if sources.overrides[key.name] != nil { return "the command line" }
        if sources.environment[key.environmentVariable] != nil {
            return "environment variable \(key.environmentVariable)"
        }
        return filePath
    }

    func path(_ key: ConfigurationKey) throws(ConfigurationError) -> String? {
        guard let value = try string(key) else { return nil }
        guard value.hasPrefix("/"), !value.contains("\0") else {
            throw .invalidValue(key: key.name, value: value, reason: "must be an absolute path")
        }
        return value
    }

    /// An absolute path; `.some(nil)` for the empty string ("off"), `nil` when not set.
    func optionalPath(_ key: ConfigurationKey) throws(ConfigurationError) -> String?? {
        guard let value = try string(key) else { return nil }
        if value.isEmpty { return .some(nil) }
        guard value.hasPrefix("/"), !value.contains("\0") else {
            throw .invalidValue(
                key: key.name, value: value, reason: "must be an absolute path, or empty to turn it off")
        }
        return value
    }

    func choice(_ key: ConfigurationKey) throws(ConfigurationError) -> String? {
        guard let value = try string(key) else { return nil }
        guard case .choice(let choices) = key.kind, choices.contains(value) else {
            let allowed = if case .choice(let choices) = key.kind { choices.joined(separator: ", ") } else { "" }
            throw .invalidValue(key: key.name, value: value, reason: "must be one of \(allowed)")
        }
        return value
    }

    func integer(_ key: ConfigurationKey) throws(ConfigurationError) -> Int? {
        let value: Int
        do {
            value = try reader.requiredInt(forKey: ConfigKey(key.name.split(separator: ".").map(String.init)))
        } catch {
            if isAbsent(key, as: .int) { return nil }
            throw .wrongType(key: key.name, expected: "a whole number", source: source(of: key))
        }
        if case .integer(let range) = key.kind, !range.contains(value) {
            throw .invalidValue(
                key: key.name, value: "\(value)", reason: "must be in \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    /// A list of user or group names or numeric ids, each resolved to an id.
    func ids(_ key: ConfigurationKey, resolve: (String) -> UInt32?) throws(ConfigurationError) -> Set<UInt32> {
        let names: [String]
        do {
            names = try reader.requiredStringArray(forKey: ConfigKey(key.name.split(separator: ".").map(String.init)))
        } catch {
            if isAbsent(key, as: .stringArray) { return [] }
            throw .wrongType(key: key.name, expected: "a list of names", source: source(of: key))
        }
        var ids: Set<UInt32> = []
        for name in names.map({ $0.trimmingBlanks() }) where !name.isEmpty {
            guard let id = UInt32(name) ?? resolve(name) else {
                throw .invalidValue(key: key.name, value: name, reason: "no such user or group")
            }
            ids.insert(id)
        }
        return ids
    }

    /// Any string; `nil` when not set.
    func text(_ key: ConfigurationKey) throws(ConfigurationError) -> String? {
        try string(key)
    }

    /// `true` or `false`; `nil` when not set.
    func boolean(_ key: ConfigurationKey) throws(ConfigurationError) -> Bool? {
        do {
            return try reader.requiredBool(forKey: ConfigKey(key.name.split(separator: ".").map(String.init)))
        } catch {
            if isAbsent(key, as: .bool) { return nil }
            throw .wrongType(key: key.name, expected: "true or false", source: source(of: key))
        }
    }

    private func string(_ key: ConfigurationKey) throws(ConfigurationError) -> String? {
        do {
            return try reader.requiredString(forKey: ConfigKey(key.name.split(separator: ".").map(String.init)))
        } catch {
            if isAbsent(key, as: .string) { return nil }
            throw .wrongType(key: key.name, expected: "a string", source: source(of: key))
        }
    }

    /// Whether no provider has a value for `key`: swift-configuration's `required…` accessors throw the same
    /// way for a missing value and a value of the wrong type, so the providers are asked directly. A provider
    /// that throws has a value it cannot give as `type`: the key is there, with the wrong type.
    private func isAbsent(_ key: ConfigurationKey, as type: ConfigType) -> Bool {
        let absolute = ConfigurationLoader.absoluteKey(key.name)
        for provider in providers {
            do {
                if try provider.value(forKey: absolute, type: type).value != nil { return false }
            } catch {
                return false
            }
        }
        return true
    }
}
