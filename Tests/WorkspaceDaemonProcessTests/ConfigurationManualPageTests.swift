import Foundation
import TestSupport
import Testing
import WorkspaceDaemon

/// workspaced.json(5): made from ``ConfigurationKey/all`` and the flags, so every key, variable and flag is in it;
/// its example loads; groff renders it without a warning.
@Suite("workspaced.json(5)")
struct ConfigurationManualPageTests {
    /// How a literal token appears in the roff source: hyphens as `\-`.
    static func roff(_ token: String) -> String { token.replacingOccurrences(of: "-", with: "\\-") }

    static var groffAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") }

    /// Runs `path arguments` to completion without holding a thread; its exit status and everything it wrote.
    private func run(_ path: String, _ arguments: [String]) async throws -> (Int32?, String) {
        let output = FileManager.default.temporaryDirectory.path + "/manual-\(UUID().uuidString).log"
        defer { try? FileManager.default.removeItem(atPath: output) }
        let process = try RunningProcess(
            path, arguments, environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"], outputPath: output)
        let status = await process.waitForExit()
        return (status, process.output)
    }

    @Test func everyKeyItsVariableAndItsFlagAreNamed() {
        let flagged = ConfigurationKey.all.prefix(4)
        let flags = Dictionary(uniqueKeysWithValues: flagged.enumerated().map { ($1.name, "--test-flag-\($0)") })
        let page = ConfigurationManualPage(
            flags: flags, configFileFlag: "--config", date: "2026-01-02", version: "9.8.7"
        ).roff
        let lines = page.split(separator: "\n").map(String.init)
        #expect(lines.contains(".TH WORKSPACED.JSON 5 2026-01-02 \"workspaced 9.8.7\" \"File Formats Manual\""))
        #expect(page.contains(Self.roff("--config")))
        for key in ConfigurationKey.all {
            guard let start = lines.firstIndex(of: ".B \(key.name)") else {
                Issue.record("no entry for \(key.name)")
                continue
            }
            let entry = lines[start...].prefix { $0 != ".TP" && !$0.hasPrefix(".SH") }.joined(separator: "\n")
            #expect(entry.contains("Environment: \\fB\(key.environmentVariable)\\fR"), "\(key.name): \(entry)")
            if let flag = flags[key.name] {
                #expect(entry.contains("Flag: \\fB\(Self.roff(flag))\\fR"), "\(key.name): \(entry)")
            } else {
                #expect(entry.contains("Flag: none"), "\(key.name): \(entry)")
            }
        }
    }

    @Test func noLineCanBeTakenForARequestByMistake() {
        let page = ConfigurationManualPage(
            flags: [:], configFileFlag: "--config", date: "2026-01-02", version: "1.0.0"
        ).roff
        let known: Set<String> = [
            ".\\\"", ".TH", ".SH", ".TP", ".B", ".I", ".BR", ".PP", ".br", ".in", ".EX", ".EE",
        ]
        for line in page.split(separator: "\n") where line.hasPrefix(".") || line.hasPrefix("'") {
            let request = String(line.prefix { $0 != " " })
            #expect(known.contains(request), "unexpected request line: \(line)")
        }
    }

    @Test func theExampleIsAConfigurationTheDaemonAccepts() async throws {
        let path = FileManager.default.temporaryDirectory.path + "/manual-example-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(ConfigurationManualPage.example.utf8).write(to: URL(fileURLWithPath: path))
        let configuration = try await ConfigurationLoader.load(ConfigurationSources(configFile: path, environment: [:]))
        #expect(configuration.saveDebounce == .milliseconds(1000))
        #expect(configuration.logLevel == .debug)
    }

    /// The page `workspaced configuration-manual` prints names every option of `workspaced run` (the flags are
    /// found by the binary from its own parser), every key and every variable.
    @Test func theBinaryPrintsEveryFlagOfRun() async throws {
        let binary = ProductPaths.executable("workspaced")
        let (status, page) = try await run(binary, ["configuration-manual", "--date", "2026-01-02"])
        #expect(status == 0, "\(page)")
        let (helpStatus, help) = try await run(binary, ["run", "--experimental-dump-help"])
        #expect(helpStatus == 0, "\(help)")
        let object = try JSONSerialization.jsonObject(with: Data(help.utf8)) as? [String: Any]
        let command = object?["command"] as? [String: Any]
        let arguments = command?["arguments"] as? [[String: Any]] ?? []
        let options = arguments.filter { $0["kind"] as? String == "option" }.compactMap { argument in
            (argument["names"] as? [[String: Any]])?.first { $0["kind"] as? String == "long" }?["name"] as? String
        }
        #expect(options.count >= 10, "\(help)")
        for option in options {
            #expect(page.contains("\\fB" + Self.roff("--" + option) + "\\fR"), "--\(option) is not in the page")
        }
        for key in ConfigurationKey.all {
            #expect(page.contains(".B \(key.name)\n"))
            #expect(page.contains(key.environmentVariable))
        }
    }

    @Test(.enabled(if: groffAvailable, "groff is not installed"))
    func groffRendersItWithoutAWarning() async throws {
        let path = FileManager.default.temporaryDirectory.path + "/workspaced.json-\(UUID().uuidString).5"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let flags = Dictionary(uniqueKeysWithValues: ConfigurationKey.all.map { ($0.name, "--flag-for-\($0.name)") })
        let page = ConfigurationManualPage(flags: flags, configFileFlag: "--config", date: "2026-01-02", version: "1")
        try Data(page.roff.utf8).write(to: URL(fileURLWithPath: path))
        let (status, output) = try await run("/usr/bin/groff", ["-ww", "-man", "-Tutf8", "-z", path])
        #expect(status == 0)
        #expect(output.isEmpty, "\(output)")
    }
}
