extension LoadReport {
    /// Where the loaded state came from, as one word for a metric's label: `file`, `migrated` (a file of an
    /// older version), `salvaged`, `quarantined` (the initial state after a corrupt file), `restored` (a backup
    /// after a corrupt file), `imported` or `none` (no file).
    public var sourceName: String {
        switch source {
        case .noFile: "none"
        case .quarantined: quarantine?.restoredFrom == nil ? "quarantined" : "restored"
        case .salvaged: "salvaged"
        case .imported: "imported"
        case .file: stepsApplied.isEmpty ? "file" : "migrated"
        }
    }
}
