import StateStore
import WorkspaceModel

/// The change the persistence benchmarks make: a rename of one of the first projects through the model's own
/// validating mutation, applied in place as the daemon applies `PATCH /v1/projects/ID` (one validating step, so
/// `validatesBeforeMutating`).
enum WorkspaceTouch {
    /// Renames the project `ids[index % ids.count]` in `state` to a name made of `index`.
    static func rename(_ state: PersistentState<Workspace>, ids: [WorkspaceID], _ index: Int) throws {
        try state.apply(validatesBeforeMutating: true) { (workspace: inout Workspace) throws(WorkspaceError) in
            try workspace.renameProject(ids[index % ids.count], to: "renamed \(index)")
        }
    }
}
