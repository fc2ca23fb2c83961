import StateModel
import StateStore

/// Version 1 of the settings file, frozen as it shipped: `{"theme":"dark","version":1}`.
@StateModel struct SettingsV1: Sendable { var theme: String }

/// The current settings, version 2: a font size, 12 wherever a file has none.
@StateModel public struct Settings: Sendable, Equatable {
    /// The colour theme.
    public var theme: String
    /// The font size in points.
    public var fontSize: Int = 12
}

/// The schema: version 2, and the step that brings a version 1 file to it. A gap in the chain of steps throws here,
/// never while a file loads.
public func settingsSchema() throws(MigrationPlanError) -> StateSchema<Settings> {
    try StateSchema(
        currentVersion: 2,
        migrations: [
            MigrationStep(from: 1, SettingsV1.self, to: Settings.self) { old, context in
                context.defaulted("fontSize")
                return Settings(theme: old.theme)
            }
        ],
        initial: { Settings(theme: "light") })
}
