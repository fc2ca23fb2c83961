import StateStore
import WorkspaceModel
import WorkspaceStorage

/// The state file's schema this process reads and writes: the shipped one; in a debug build with the test hooks
/// asked for, the test's version 5 on top of it (``TestSchemaFive``).
func processSchema() -> StateSchema<Workspace> {
    #if DEBUG
    if let schema = TestSchemaFive.fromEnvironment() { return schema }
    #endif
    return WorkspaceSchema.shipped
}
