import WorkspaceAPI

/// A configuration the daemon refuses, naming the key and where it came from. The daemon exits with 78
/// (`EX_CONFIG`) on any of these at start-up, and keeps its old configuration on reload.
package enum ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A key the daemon does not know, in the file or as a `WORKSPACED_*` variable, with the known key it most
    /// likely means; refused only by a strict load (`workspaced check-config`), ignored with a warning otherwise.
    case unknownKey(key: String, source: String, suggestion: String?)
    /// A value of the wrong type.
    case wrongType(key: String, expected: String, source: String)
    /// A value of the right type that cannot be used.
    case invalidValue(key: String, value: String, reason: String)
    /// The config file exists but cannot be read or is not a JSON object.
    case unreadableFile(path: String, reason: String)

    /// The exit status for a refused configuration: 78, `EX_CONFIG`.
    package static let exitCode: Int32 = ExitStatus.configuration.rawValue

    /// A sentence naming the key.
    package var description: String {
        switch self {
        case .unknownKey(let key, let source, let suggestion):
            return "unknown configuration key \(key) in \(source)" + (suggestion.map { " (did you mean \($0)?)" } ?? "")
        case .wrongType(let key, let expected, let source):
            return "configuration key \(key) in \(source): expected \(expected)"
        case .invalidValue(let key, let value, let reason):
            return "configuration key \(key) = \(value): \(reason)"
        case .unreadableFile(let path, let reason):
            return "cannot read the configuration file \(path): \(reason)"
        }
    }
}
