import Foundation
import Testing
import WorkspaceDaemon

/// ``ConfigurationKey/all`` is the one table of keys: the loader's defaults, ``DaemonConfiguration``'s and the
/// README's table all come from it.
@Suite("configuration key table")
struct ConfigurationKeyTableTests {
    @Test("every default is a value its own key accepts")
    func defaultsAreValid() {
        for key in ConfigurationKey.all {
            switch (key.kind, key.defaultValue) {
            case (.integer(let range), .integer(let value)):
                #expect(range.contains(value), "\(key.name): \(value) is outside \(range)")
            case (.choice(let choices), .text(let value)):
                #expect(choices.contains(value), "\(key.name): \(value) is not one of \(choices)")
            case (.optionalPath, .text(let value)), (.path, .text(let value)):
                #expect(value.hasPrefix("/"), "\(key.name): \(value) is not absolute")
            case (.path, .described), (.optionalPath, .described), (.names, .described):
                break
            case (.replicaURL, .described), (.endpointURL, .described), (.listenAddress, .described):
                break
            case (.word, .text(let value)):
                #expect(!value.isEmpty, "\(key.name): empty")
            case (.boolean, .text(let value)):
                #expect(["true", "false"].contains(value), "\(key.name): \(value) is not a boolean")
            default:
                Issue.record("\(key.name): a \(key.kind) key with the default \(key.defaultValue)")
            }
        }
    }

    @Test("a configuration loaded from nothing has every default of the table")
    func loaderUsesTheTable() async throws {
        let loaded = try await ConfigurationLoader.load(
            ConfigurationSources(environment: ["CONFIGURATION_DIRECTORY": "/nonexistent/workspaced-defaults"]))
        #expect(loaded.saveDebounce == .milliseconds(ConfigurationKey.saveDebounce.integerDefault))
        #expect(loaded.saveMaximumDelay == .milliseconds(ConfigurationKey.saveMaximumDelay.integerDefault))
        #expect(loaded.corruptFilePolicy.rawValue == ConfigurationKey.corruptFilePolicy.textDefault)
        #expect(loaded.backupsKept == ConfigurationKey.backupsKept.integerDefault)
        #expect(loaded.crashedLoadLimit == ConfigurationKey.crashedLoadLimit.integerDefault)
        #expect(loaded.legacyStatePath == ConfigurationKey.legacyStatePath.textDefault)
        #expect(loaded.logLevel.rawValue == ConfigurationKey.logLevel.textDefault)
        #expect(loaded.apiMaximumBodyBytes == ConfigurationKey.apiMaximumBodyBytes.integerDefault)
        #expect(loaded.apiMaximumConnections == ConfigurationKey.apiMaximumConnections.integerDefault)
        #expect(loaded.apiRequestTimeout == .milliseconds(ConfigurationKey.apiRequestTimeout.integerDefault))
        #expect(loaded.metricsEnabled && loaded.metricsListen == nil && !loaded.metricsAllowRemote)
        // The memberwise defaults are the same.
        let built = DaemonConfiguration(
            stateDirectory: loaded.stateDirectory, controlSocketPath: loaded.controlSocketPath)
        #expect(built == loaded)
    }

    @Test("the README's table is the one the table makes")
    func readmeTableIsGenerated() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        #expect(
            text.contains(ConfigurationKeyTable.markdown),
            "README.md's table of keys differs; paste `workspaced configuration-manual --markdown` in its place")
        #expect(ConfigurationKeyTable.markdown.split(separator: "\n").count == ConfigurationKey.all.count + 2)
    }
}
