import Testing
import WorkspaceDaemon

/// ``RunCommandLine`` reads `run`'s usual command line exactly and leaves everything else to argument-parser.
@Suite("run's command line without argument-parser")
struct RunCommandLineTests {
    /// Every key with a flag: the flag and a value, as the overrides `workspaced`'s `ConfigOptions` makes.
    @Test("every flag of the key table sets its key, in both forms")
    func everyFlag() throws {
        let flagged = ConfigurationKey.all.filter { $0.flag != nil }
        #expect(flagged.count >= 10)
        for key in flagged {
            let flag = try #require(key.flag)
            let spaced = try #require(RunCommandLine(arguments: ["run", flag, "/some value"]), "\(flag)")
            #expect(spaced.overrides == [key.name: .string("/some value")], "\(flag)")
            #expect(spaced.configFile == nil)
            let joined = try #require(RunCommandLine(arguments: [flag + "=/some=value"]), "\(flag)=")
            #expect(joined.overrides == [key.name: .string("/some=value")], "\(flag)=")
        }
    }

    @Test("the config file, several flags, and no arguments at all")
    func aServiceCommandLine() throws {
        let line = try #require(
            RunCommandLine(arguments: [
                "run", "--config", "/etc/w.json", "--state-directory=/var/lib/w", "--log-level", "debug",
                "--legacy-state-path", "",
            ]))
        #expect(line.configFile == "/etc/w.json")
        #expect(
            line.overrides == [
                ConfigurationKey.stateDirectory.name: .string("/var/lib/w"),
                ConfigurationKey.logLevel.name: .string("debug"),
                ConfigurationKey.legacyStatePath.name: .string(""),
            ])
        let sources = line.sources(environment: ["WORKSPACED_LOG_LEVEL": "error"])
        #expect(sources.configFile == "/etc/w.json")
        #expect(sources.environment == ["WORKSPACED_LOG_LEVEL": "error"])
        #expect(sources.overrides == line.overrides)
        let bare = try #require(RunCommandLine(arguments: []))
        #expect(bare == RunCommandLine(arguments: ["run"]))
        #expect(bare.configFile == nil && bare.overrides.isEmpty)
    }

    /// What argument-parser must read: its own requests, other commands and every mistake, which it reports.
    @Test(
        "anything else is left to argument-parser",
        arguments: [
            ["--help"], ["run", "--help"], ["-h"], ["--version"], ["help"], ["check-config"], ["check"],
            ["run", "run"], ["--config"], ["run", "--state-directory"], ["--no-such-flag", "x"],
            ["--no-such-flag=x"], ["--config", "a", "--config", "b"], ["--config", "a", "--config=b"],
            ["--state-directory", "--config"], ["--state-directory=-x"], ["run", "extra"], ["--", "x"],
            ["-c", "x"], ["--generate-completion-script", "bash"],
        ])
    func declined(arguments: [String]) {
        #expect(RunCommandLine(arguments: arguments) == nil)
    }
}
