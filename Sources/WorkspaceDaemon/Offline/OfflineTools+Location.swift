import WorkspaceModel
import WorkspaceStorage

extension OfflineTools {
    /// The state directory an offline tool works on: `explicit` (`--state-directory`) as given, without reading
    /// any configuration (so a broken config file never keeps a file from being inspected); else the directory the
    /// daemon is configured with, resolved from `sources` by the daemon's own ``ConfigurationLoader``: the
    /// `WORKSPACED_STATE_DIRECTORY` variable, then the config file's `stateDirectory`, then `$STATE_DIRECTORY`,
    /// then `/var/lib/workspaced`.
    ///
    /// - Throws: ``ConfigurationError`` when the configuration is invalid; the tools then exit 78, as the daemon.
    package static func stateDirectory(
        explicit: String?, sources: ConfigurationSources
    ) async throws(ConfigurationError) -> String {
        if let explicit { return explicit }
        return try await ConfigurationLoader.load(sources).stateDirectory
    }

    /// The state file in `directory`: `workspace.json`, as the daemon names it.
    package static func statePath(inStateDirectory directory: String) -> String {
        directory + "/" + WorkspaceSchema.fileName
    }
}
