import StateStore
import WorkspaceModel

/// The control API's changes are what the daemon's change journal records (``StateChange``).
extension WorkspaceChange: StateChange {}
