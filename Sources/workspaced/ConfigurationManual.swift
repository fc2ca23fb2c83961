import ArgumentParser
import Foundation
import WorkspaceAPI
import WorkspaceDaemon

/// `workspaced configuration-manual` (hidden): prints the workspaced.json(5) page for `make install` and `make deb`.
/// The keys and variables come from ``ConfigurationKey/all``; the flags from ``ConfigOptions`` itself, so a new
/// key, variable or flag shows up in the page without editing it.
struct ConfigurationManual: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "configuration-manual",
        abstract: "Print the workspaced.json(5) manual page (roff) made from the configuration keys and flags.",
        shouldDisplay: false)

    @Option(help: "The page's date, YYYY-MM-DD (default today, UTC).")
    var date: String?

    func run() throws {
        let page = ConfigurationManualPage(
            flags: try ConfigOptions.flagsByKey(), configFileFlag: "--config",
            date: date ?? Self.today(), version: Release.version)
        print(page.roff, terminator: "")
    }

    private static func today() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date())
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

    var description: String {
        switch self {
        case .setsNoKey(let flag):
            return "\(flag) sets no configuration key"
        case .setsSeveralKeys(let flag, let keys):
            return "\(flag) sets \(keys.count) configuration keys (\(keys.joined(separator: ", "))); expected one"
        case .setsUnlistedKey(let flag, let key):
            return "\(flag) sets \(key), which is not in ConfigurationKey.all"
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
