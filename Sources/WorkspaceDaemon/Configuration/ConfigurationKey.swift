/// A configuration key the daemon understands: its name in the config file (dotted for nested objects), its
/// environment variable, and the kind of value it takes.
public struct ConfigurationKey: Sendable, Hashable {
    /// The kind of value a key takes.
    public enum Kind: Sendable, Hashable {
        /// An absolute path.
        case path
        /// An absolute path, or the empty string for "off".
        case optionalPath
        /// A whole number within a range.
        case integer(ClosedRange<Int>)
        /// One of a fixed set of strings.
        case choice([String])
        /// A list of user or group names (or numeric ids); comma-separated in the environment.
        case names
    }

    /// The dotted name, as in the config file (`save.debounceMilliseconds`).
    public let name: String
    /// The kind of value.
    public let kind: Kind
    /// One line for the documentation and error messages.
    public let summary: String

    /// The environment variable that overrides it: `WORKSPACED_` and the name in upper snake case
    /// (`save.debounceMilliseconds` → `WORKSPACED_SAVE_DEBOUNCE_MILLISECONDS`).
    public var environmentVariable: String {
        var result = "WORKSPACED"
        for component in name.split(separator: ".") {
            result += "_"
            var previousWasLower = false
            for character in component {
                if character.isUppercase && previousWasLower { result += "_" }
                result += character.uppercased()
                previousWasLower = character.isLowercase
            }
        }
        return result
    }

    /// The state directory.
    public static let stateDirectory = ConfigurationKey(
        name: "stateDirectory", kind: .path,
        summary: "directory of workspace.json (default $STATE_DIRECTORY, else /var/lib/workspaced)")
    /// The control socket.
    public static let controlSocket = ConfigurationKey(
        name: "controlSocket", kind: .path,
        summary: "control API socket (default $RUNTIME_DIRECTORY/control.sock, else /run/workspaced/control.sock)")
    /// The save debounce.
    public static let saveDebounce = ConfigurationKey(
        name: "save.debounceMilliseconds", kind: .integer(0...60_000),
        summary: "quiet time after a change before saving, in ms (default 500)")
    /// The maximum save delay.
    public static let saveMaximumDelay = ConfigurationKey(
        name: "save.maximumDelayMilliseconds", kind: .integer(1...600_000),
        summary: "longest a change stays unsaved, in ms, at least the debounce (default 5000)")
    /// The corrupt-file policy.
    public static let corruptFilePolicy = ConfigurationKey(
        name: "corruptFilePolicy", kind: .choice(["salvage", "quarantine", "refuse"]),
        summary: "what to do with an unreadable state file (default salvage)")
    /// The state file of an earlier installation, imported once when there is no state file.
    public static let legacyStatePath = ConfigurationKey(
        name: "legacyStatePath", kind: .optionalPath,
        summary: "state file of an earlier installation, imported once; empty turns the import off "
            + "(default /var/lib/workspace-state/state.json)")
    /// The number of backups kept.
    public static let backupsKept = ConfigurationKey(
        name: "backupsKept", kind: .integer(1...100), summary: "pre-migration backups kept (default 3)")
    /// How many loads of the same state file may never finish before the next start sets it aside.
    public static let crashedLoadLimit = ConfigurationKey(
        name: "crashedLoadLimit", kind: .integer(0...100),
        summary: "loads of the same state file that may crash, be killed or time out before the next start sets "
            + "it aside and starts from a backup; 0 turns the guard off (default 3)")
    /// The log level.
    public static let logLevel = ConfigurationKey(
        name: "logLevel", kind: .choice(["trace", "debug", "info", "notice", "warning", "error", "critical"]),
        summary: "lowest level logged (default info)")
    /// The largest request body the control API accepts.
    public static let apiMaximumBodyBytes = ConfigurationKey(
        name: "api.maximumBodyBytes", kind: .integer(1024...67_108_864),
        summary: "largest control API request body, in bytes; larger ones get 413 (default 1048576)")
    /// The most control API connections open at once.
    public static let apiMaximumConnections = ConfigurationKey(
        name: "api.maximumConnections", kind: .integer(16...65_536),
        summary: "most control API connections open at once; one more gets 503 (default 2048, at most the open-file "
            + "limit less 64)")
    /// How long a control API request may take to arrive whole, from its first byte.
    public static let apiRequestTimeout = ConfigurationKey(
        name: "api.requestTimeoutMilliseconds", kind: .integer(100...600_000),
        summary: "longest a request may take to arrive whole from its first byte, in ms; then 408 (default 30000)")

    /// Users (names or uids) that may read the workspace through the control API.
    public static let readUsers = ConfigurationKey(
        name: "access.readUsers", kind: .names, summary: "users allowed to read through the API (default none)")
    /// Groups (names or gids) that may read the workspace.
    public static let readGroups = ConfigurationKey(
        name: "access.readGroups", kind: .names, summary: "groups allowed to read through the API (default none)")
    /// Users that may change the workspace (and read it).
    public static let writeUsers = ConfigurationKey(
        name: "access.writeUsers", kind: .names, summary: "users allowed to change through the API (default none)")
    /// Groups that may change the workspace (and read it).
    public static let writeGroups = ConfigurationKey(
        name: "access.writeGroups", kind: .names, summary: "groups allowed to change through the API (default none)")

    /// Every key, in documentation order.
    public static let all: [ConfigurationKey] = [
        .stateDirectory, .controlSocket, .saveDebounce, .saveMaximumDelay, .corruptFilePolicy, .backupsKept,
        .crashedLoadLimit, .legacyStatePath, .logLevel, .apiMaximumBodyBytes, .apiMaximumConnections,
        .apiRequestTimeout, .readUsers,
        .readGroups, .writeUsers, .writeGroups,
    ]
}
