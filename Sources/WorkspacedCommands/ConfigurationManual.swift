import ArgumentParser
import FoundationEssentials
import StateStore
import WorkspaceAPI
import WorkspaceDaemon

/// `workspaced configuration-manual` (hidden): prints the workspaced.json(5) page for `make install` and `make deb`,
/// or with `--markdown` the README's table of keys. Both come from ``ConfigurationKey/all``; the flags that
/// ``ConfigOptions`` really parses are checked against the table's, so a page never names a flag that does not work.
struct ConfigurationManual: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "configuration-manual",
        abstract: "Print the workspaced.json(5) manual page (roff) made from the configuration keys and flags.",
        shouldDisplay: false)

    @Option(help: "The page's date, YYYY-MM-DD (default today, UTC).")
    var date: String?

    @Flag(help: "Print the README's Markdown table of keys instead.")
    var markdown = false

    func run() throws {
        let parsed = try ConfigOptions.flagsByKey()
        let table = Dictionary(
            uniqueKeysWithValues: ConfigurationKey.all.compactMap { key in key.flag.map { (key.name, $0) } })
        guard parsed == table else { throw ManualFlagError.tableDiffers(parsed: parsed, table: table) }
        if markdown {
            print(ConfigurationKeyTable.markdown, terminator: "")
            return
        }
        let page = ConfigurationManualPage(
            flags: table, configFileFlag: "--config", date: date ?? UTCTimestamp.day(Date()), version: Release.version)
        print(page.roff, terminator: "")
    }
}

/// A flag of ``ConfigOptions`` that the manual page cannot place, so `make install` stops instead of shipping a page
/// that leaves it out.
enum ManualFlagError: Error, CustomStringConvertible {
    /// The flag sets no configuration key and is not the config file option.
    case setsNoKey(flag: String)
    /// The flag sets several keys.
    case setsSeveralKeys(flag: String, keys: [String])
    /// The flag sets a key that is not in ``ConfigurationKey/all``.
    case setsUnlistedKey(flag: String, key: String)
    /// The flags the parser has are not the flags ``ConfigurationKey/all`` names.
    case tableDiffers(parsed: [String: String], table: [String: String])

    var description: String {
        switch self {
        case .setsNoKey(let flag):
            return "\(flag) sets no configuration key"
        case .setsSeveralKeys(let flag, let keys):
            return "\(flag) sets \(keys.count) configuration keys (\(keys.joined(separator: ", "))); expected one"
        case .setsUnlistedKey(let flag, let key):
            return "\(flag) sets \(key), which is not in ConfigurationKey.all"
        case .tableDiffers(let parsed, let table):
            return "the options of ConfigOptions (\(parsed.sorted { $0.key < $1.key })) are not the flags "
                + "ConfigurationKey.all names (\(table.sorted { $0.key < $1.key }))"
        }
    }
}

extension ConfigOptions {
    /// The long option that sets each configuration key, by key name: every option the parser knows is given a
    /// value and the key it then overrides is recorded. The config file option (`--config`) is left out.
    ///
    /// - Throws: ``ManualFlagError`` for an option that sets no key, several, or one the page does not list.
    static func flagsByKey() throws -> [String: String] {
        struct Help: Decodable {
            struct Command: Decodable { let arguments: [Argument]? }
            struct Argument: Decodable {
                let kind: String
                let names: [Name]?
            }
            struct Name: Decodable {
                let kind: String
                let name: String
            }
            let command: Command
        }
        let help = try JSONDecoder().decode(Help.self, from: Data(_dumpHelp().utf8))
        var flags: [String: String] = [:]
        for argument in help.command.arguments ?? [] where argument.kind == "option" {
            guard let long = argument.names?.first(where: { $0.kind == "long" }) else { continue }
            let flag = "--" + long.name
            let sources = try parse([flag, "/probe"]).sources()
            let keys = sources.overrides.keys.sorted()
            if keys.isEmpty && sources.configFile != nil { continue }
            guard let key = keys.first else { throw ManualFlagError.setsNoKey(flag: flag) }
            guard keys.count == 1 else { throw ManualFlagError.setsSeveralKeys(flag: flag, keys: keys) }
            guard ConfigurationKey.all.contains(where: { $0.name == key }) else {
                throw ManualFlagError.setsUnlistedKey(flag: flag, key: key)
            }
            flags[key] = flag
        }
        return flags
    }
}
