import Foundation
import StateStore

/// Version 1 of the state file, frozen as it shipped: `{"count":3,"minReaderVersion":1,"version":1}`.
struct StartsV1: Codable, Sendable {
    /// How many times the service started.
    var count: Int
}

/// The current model, version 2: `count` renamed `starts`, and the time of the last start added.
struct Starts: Codable, Sendable, Equatable {
    /// How many times the service started.
    var starts: Int
    /// When it last started; `nil` when unknown (a file migrated from version 1).
    var lastStartedAt: Date?
}

/// The schema: version 2, and the one step that brings a version 1 file to it.
enum StartsSchema {
    /// Builds the schema; a gap or a type mismatch in the chain throws here, never while a file loads.
    static func make() throws(MigrationPlanError) -> StateSchema<Starts> {
        try StateSchema(
            currentVersion: 2,
            migrations: [
                MigrationStep(from: 1, StartsV1.self, to: Starts.self) { old, context in
                    context.defaulted("lastStartedAt")
                    return Starts(starts: old.count, lastStartedAt: nil)
                }
            ],
            initial: { Starts(starts: 0, lastStartedAt: nil) })
    }
}
