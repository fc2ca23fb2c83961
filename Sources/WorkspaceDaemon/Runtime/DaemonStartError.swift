import StateStore
import WorkspaceAPI

/// Why the daemon did not become ready, with the exit status it leaves with.
package enum DaemonStartError: Error, Sendable, CustomStringConvertible {
    /// The configuration was refused.
    case configuration(ConfigurationError)
    /// The state directory did not exist and could not be created (`mkdir` failed with this error).
    case stateDirectory(FileSystemError)
    /// The state could not be loaded.
    case state(StateStoreError)
    /// The control socket could not be served.
    case controlSocket(String)
    /// The state file is too large to load within the service's memory limit (`MemoryMax=`): a configuration
    /// problem, not one a restart fixes.
    case memory(MemoryRefusal)

    /// The exit status for this failure.
    package var exitCode: ExitStatus {
        switch self {
        case .configuration, .memory: return .configuration
        case .controlSocket: return .ioError
        case .stateDirectory: return .cannotCreate
        case .state(let error):
            switch error {
            case .newerVersion: return .temporaryFailure
            case .corrupt: return .dataError
            case .locked, .lockFailed: return .cannotCreate
            default: return .ioError
            }
        }
    }

    /// The one line the daemon logs and puts in its STATUS.
    package var description: String {
        switch self {
        case .configuration(let error): return "refusing to start: \(error)"
        case .state(let error): return "refusing to start: \(error)"
        case .stateDirectory(let error): return "refusing to start: cannot create the state directory: \(error)"
        case .controlSocket(let reason): return "cannot serve the control socket: \(reason)"
        case .memory(let refusal): return "refusing to start: \(refusal)"
        }
    }
}
