/// The release of workspaced, workspacectl and their libraries: the one place it is written. `workspaced
/// --version`, `workspacectl --version`, `GET /v1/status` (`daemonVersion`), the journal's ready line and the
/// installation record's first release all read it.
public enum Release {
    /// The release, as `MAJOR.MINOR.PATCH`.
    public static let version = "0.2.0"
}
