#if canImport(Glibc)
import Glibc
#endif

/// The environment variables the service manager hands to a service, as an injectable value.
///
/// Production code uses ``ServiceEnvironment/process()``; tests build one from a dictionary so that nothing
/// touches the process-global environment.
public struct ServiceEnvironment: Sendable, Equatable {
    /// The variables, by name.
    public var variables: [String: String]

    /// Creates an environment from a dictionary of variables.
    public init(_ variables: [String: String] = [:]) {
        self.variables = variables
    }

    /// A snapshot of the current process environment.
    public static func process() -> ServiceEnvironment {
        var variables: [String: String] = [:]
        var cursor = environ
        while let entry = cursor.pointee {
            // Split at the first "=" byte: a UTF-8 index is a valid `String` index there (an ASCII byte), and a
            // byte search skips the grapheme breaking that `firstIndex(of: Character)` does on every character.
            let text = String(cString: entry)
            if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
                variables[String(text[..<equals])] = String(text[text.utf8.index(after: equals)...])
            }
            cursor += 1
        }
        return ServiceEnvironment(variables)
    }

    /// The value of a variable, or `nil` when it is unset or empty.
    public subscript(name: String) -> String? {
        guard let value = variables[name], !value.isEmpty else { return nil }
        return value
    }

    /// The first path of a colon-separated list variable such as `STATE_DIRECTORY`, or `nil` when unset.
    ///
    /// systemd sets these to several absolute paths joined by `:` when a unit lists several directories.
    public func firstPath(of name: String) -> String? {
        guard let value = self[name] else { return nil }
        return value.split(separator: ":", omittingEmptySubsequences: true).first.map(String.init)
    }

    /// The first path of `STATE_DIRECTORY` (set by `StateDirectory=`).
    public var stateDirectory: String? { firstPath(of: "STATE_DIRECTORY") }

    /// The first path of `RUNTIME_DIRECTORY` (set by `RuntimeDirectory=`).
    public var runtimeDirectory: String? { firstPath(of: "RUNTIME_DIRECTORY") }

    /// The first path of `CONFIGURATION_DIRECTORY` (set by `ConfigurationDirectory=`).
    public var configurationDirectory: String? { firstPath(of: "CONFIGURATION_DIRECTORY") }

    /// `CREDENTIALS_DIRECTORY` (set by `LoadCredential=` and `SetCredential=`).
    public var credentialsDirectory: String? { self["CREDENTIALS_DIRECTORY"] }

    /// `NOTIFY_SOCKET`, the socket readiness notifications go to (set for `Type=notify`).
    public var notifySocket: String? { self["NOTIFY_SOCKET"] }

    /// `INVOCATION_ID`, present whenever the process runs as part of a systemd unit.
    public var invocationID: String? { self["INVOCATION_ID"] }

    /// `JOURNAL_STREAM`, the `device:inode` pair of the journal stream stdout/stderr were connected to.
    public var journalStream: String? { self["JOURNAL_STREAM"] }

    /// Whether the process looks like it runs under systemd (`INVOCATION_ID` or `JOURNAL_STREAM` is set).
    public var isUnderSystemd: Bool { invocationID != nil || journalStream != nil }
}
