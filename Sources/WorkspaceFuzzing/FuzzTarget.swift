import Foundation

/// A fuzz target of the reliability suite (docs/reliability.md): what the bytes a fuzzer makes are fed to, and
/// the promise checked on each input.
///
/// `make fuzz` runs each one under libFuzzer (`WorkspaceFuzz --target=NAME`, built with
/// `-sanitize=fuzzer,address`); `WorkspaceFuzzingTests` runs every stored input (seeds and the crashes found,
/// kept as regression fixtures) through the same checks in the ordinary build.
package enum FuzzTarget: String, CaseIterable, Sendable {
    /// The workspace file: version read, migration, decode, salvage or quarantine (``WorkspaceFileFuzzer``).
    case workspaceFile = "workspace-file"
    /// The control API's request parsing and validation, on a small workspace (``ControlAPIFuzzer``).
    case controlAPI = "control-api"
    /// The secrets file: envelope, decryption, decode and migration (``SecretsFileFuzzer``).
    case secretsFile = "secrets-file"
    /// The direct decoder against the `Codable` path on the same bytes (``DirectDecoderFuzzer``).
    case directDecoder = "direct-decoder"

    /// A checker for this target, built once and given every input.
    package func makeChecker() throws -> any FuzzChecking {
        switch self {
        case .workspaceFile: try WorkspaceFileFuzzer()
        case .controlAPI: try ControlAPIFuzzer()
        case .secretsFile: try SecretsFileFuzzer()
        case .directDecoder: try DirectDecoderFuzzer()
        }
    }
}

/// Checks one fuzz input: `nil` when every promise held.
package protocol FuzzChecking: Sendable {
    /// The broken promise for `input`, if any.
    func check(_ input: Data) async -> FuzzFinding?
}

/// A promise a fuzz input broke, with what was seen.
package struct FuzzFinding: Error, Sendable, CustomStringConvertible {
    /// The target that checked the input.
    package var target: FuzzTarget
    /// What went wrong.
    package var message: String

    /// A finding of `target`.
    package init(_ target: FuzzTarget, _ message: String) {
        self.target = target
        self.message = message
    }

    /// `<target>: <message>`.
    package var description: String { "\(target.rawValue): \(message)" }
}
