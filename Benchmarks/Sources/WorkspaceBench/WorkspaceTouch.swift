import StateStore
import WorkspaceModel
import WorkspaceStorage

/// The change the persistence benchmarks make: a rename of one of the first projects, the `WorkspaceChange` the
/// daemon applies for `PATCH /v1/projects/ID` (one validating step, applied in place), recorded in the change
/// journal as the daemon records it.
enum WorkspaceTouch {
    /// Renames the project `ids[index % ids.count]` in `state` to a name made of `index`.
    static func rename(_ state: PersistentState<Workspace>, ids: [WorkspaceID], _ index: Int) throws {
        try state.apply(
            WorkspaceChange.updateProject(id: ids[index % ids.count], name: "renamed \(index)", layout: nil))
    }
}
