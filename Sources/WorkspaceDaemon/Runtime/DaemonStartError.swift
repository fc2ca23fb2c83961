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
    /// `replica.restoreIfMissing` found no state file and the replica could not be read: a restart retries.
    case replica(String)

    /// The exit status for this failure.
    package var exitCode: ExitStatus {
        switch self {
        case .configuration, .memory: return .configuration
        case .controlSocket: return .ioError
        case .replica: return .temporaryFailure
        case .stateDirectory: return .cannotCreate
        case .state(let error):
            if accessProblem != nil { return .permissionDenied }
            switch error {
            case .newerVersion: return .temporaryFailure
            case .corrupt: return .dataError
            // A FIFO, socket, device or directory where the state file belongs: a restart finds it again.
            case .readFailed(let failure) where failure.refusedFileType != nil: return .dataError
            case .locked, .lockFailed: return .cannotCreate
            default: return .ioError
            }
        }
    }

    /// The file of the state this process may not read or lock (`EACCES`, `EPERM`), with its owner and mode and
    /// the fix: a restart cannot change it.
    package var accessProblem: FileAccessProblem? {
        guard case .state(let error) = self else { return nil }
        switch error {
        case .readFailed(let failure), .lockFailed(let failure): return FileAccessProblem.meeting(failure)
        default: return nil
        }
    }

    /// The one line the daemon logs and puts in its STATUS.
    package var description: String {
        switch self {
        case .configuration(let error): return "refusing to start: \(error)"
        case .state(let error):
            guard let problem = accessProblem else { return "refusing to start: \(error)" }
            return "refusing to start: \(error): \(problem)"
        case .stateDirectory(let error): return "refusing to start: cannot create the state directory: \(error)"
        case .controlSocket(let reason): return "cannot serve the control socket: \(reason)"
        case .memory(let refusal): return "refusing to start: \(refusal)"
        case .replica(let reason): return "refusing to start: \(reason)"
        }
    }
}
