import WorkspaceModel

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
