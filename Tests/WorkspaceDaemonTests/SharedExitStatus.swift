import WorkspaceAPI
import WorkspaceClient

/// The shared exit statuses, named apart from Swift Testing's own `ExitStatus` (and from the `WorkspaceClient`
/// struct that shadows the module name).
typealias SharedExitStatus = ExitStatus
