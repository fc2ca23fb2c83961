import WorkspaceModel

/// What a change request's `change` event says besides its revision: the router sets ``operation`` for the task
/// handling a change route (``WorkspaceAPI/APIRoute/changeOperation``), and ``ControlAPI`` reads it when it
/// applies the change.
enum ChangeEventContext {
    /// The operation of the change being handled (`project.create`), `nil` outside a change route.
    @TaskLocal static var operation: String?
}

/// A record a `change` event names by id (the one a change created or returned).
protocol EventRecord {
    /// The record's id.
    var eventRecordID: WorkspaceID { get }
}

extension Project: EventRecord {
    var eventRecordID: WorkspaceID { id }
}

extension Pane: EventRecord {
    var eventRecordID: WorkspaceID { id }
}

extension Tab: EventRecord {
    var eventRecordID: WorkspaceID { id }
}

extension Favorite: EventRecord {
    var eventRecordID: WorkspaceID { id }
}
