import StateModel
import StateStore

/// Version 1 of the settings file, frozen as it shipped: `{"theme":"dark","version":1}`.
@StateModel struct SettingsV1: Sendable { var theme: String }

/// The current settings, version 2: a font size, 12 wherever a file has none. Keys it does not declare (a newer
/// release's) are kept and written back: `@StateModel` gives it an `unknownFields` property for them.
@StateModel public struct Settings: Sendable, Equatable {
    /// The colour theme.
    public var theme: String
    /// The font size in points.
    public var fontSize: Int = 12
}

/// The schema: version 2, and the step that brings a version 1 file to it, carrying the keys version 1 kept. A gap
/// in the chain of steps throws here, never while a file loads.
public func settingsSchema() throws(MigrationPlanError) -> StateSchema<Settings> {
    let step = MigrationStep(from: 1, SettingsV1.self, to: Settings.self) { v1, report in
        report.defaulted("fontSize")
        return Settings(theme: v1.theme, unknownFields: report.carry(v1.unknownFields, to: "", declaring: ["fontSize"]))
    }
    return try StateSchema(currentVersion: 2, migrations: [step], initial: { Settings(theme: "light") })
}
