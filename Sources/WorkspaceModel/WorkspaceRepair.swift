/// Fixes, after every load, what would break clients, and says what it did (each message becomes a warning in
/// the load report):
/// - an id repeated within its kind (projects, panes, tabs, favorites; compared case-insensitively) gets a fresh
///   id on every record after the first;
/// - an `activeProjectID` naming no project becomes `nil`;
/// - a `focusedTabIndex` outside the pane's tabs becomes 0.
///
/// Repairs never throw: every file that decodes is usable after them.
package enum WorkspaceRepair {
    /// Repairs `workspace` in place and returns one message per repair, in the order made.
    ///
    /// - Parameter makeID: Makes fresh ids; a made id already in use in its kind is skipped.
    package static func repair(
        _ workspace: inout Workspace, makeID: @escaping () -> WorkspaceID = { WorkspaceID() }
    ) -> [String] {
        var messages: [String] = []
        // Reads first and writes only what needs a repair: a write through `workspace.projects[i]…` makes every
        // array on its way unique, and nearly every load has nothing to repair.
        if hasRepeatedID(workspace) {
            repairRepeatedIDs(&workspace, makeID: makeID, &messages)
        }

        if let active = workspace.activeProjectID, !workspace.projects.contains(where: { $0.id == active }) {
            messages.append("activeProjectID \(active) names no project; set to null")
            workspace.activeProjectID = nil
        }

        for project in workspace.projects.indices
        where !workspace.projects[project].panes.allSatisfy(\.hasValidFocus) {
            for pane in workspace.projects[project].panes.indices
            where !workspace.projects[project].panes[pane].hasValidFocus {
                let value = workspace.projects[project].panes[pane]
                messages.append(
                    "pane \(value.id): focusedTabIndex \(value.focusedTabIndex) is outside its \(value.tabs.count) "
                        + "tabs; set to 0")
                workspace.projects[project].panes[pane].focusedTabIndex = 0
            }
        }
        return messages
    }

    /// Whether any id appears twice within its kind: each kind's id fingerprints in a table of their own
    /// (``IDTable``), one kind after another so that only one table is held at a time, or the ids themselves
    /// sorted when a table is not sure (a fingerprint seen twice: nearly always a repeated id; or probes too
    /// long). A table of fingerprints costs less than a `Set<WorkspaceID>`, which hashes every id with SipHash and
    /// grows by rehashing, or than sorting every id.
    ///
    /// The records are reached by index, never copied out: a `for` loop or `allSatisfy` over the arrays copies
    /// each project and pane (a retain and a release of every field).
    private static func hasRepeatedID(_ workspace: Workspace) -> Bool {
        let projects = workspace.projects
        var paneCount = 0
        var tabCount = 0
        for project in projects.indices {
            paneCount += projects[project].panes.count
            for pane in projects[project].panes.indices { tabCount += projects[project].panes[pane].tabs.count }
        }
        let distinct =
            fingerprintsDistinct(count: projects.count) { add in
                projects.indices.allSatisfy { add(projects[$0].id) }
            }
            && fingerprintsDistinct(count: paneCount) { add in
                projects.indices.allSatisfy { project in
                    projects[project].panes.indices.allSatisfy { add(projects[project].panes[$0].id) }
                }
            }
            && fingerprintsDistinct(count: tabCount) { add in
                projects.indices.allSatisfy { project in
                    projects[project].panes.indices.allSatisfy { pane in
                        projects[project].panes[pane].tabs.indices.allSatisfy {
                            add(projects[project].panes[pane].tabs[$0].id)
                        }
                    }
                }
            }
            && fingerprintsDistinct(count: workspace.favorites.count) { add in
                workspace.favorites.indices.allSatisfy { add(workspace.favorites[$0].id) }
            }
        return distinct ? false : hasRepeatedIDSorted(workspace)
    }

    /// Whether `addAll` added `count` ids whose fingerprints are all distinct (it stops at the first `false` of
    /// the `add` it is given), in a table made for them and freed on return.
    private static func fingerprintsDistinct(
        count: Int, _ addAll: (_ add: (WorkspaceID) -> Bool) -> Bool
    ) -> Bool {
        var table = IDTable(capacity: count)
        return addAll { table.insert($0) }
    }

    /// ``hasRepeatedID(_:)`` by sorting each kind's ids as 128-bit numbers and comparing neighbours.
    private static func hasRepeatedIDSorted(_ workspace: Workspace) -> Bool {
        var projects: [UInt128] = []
        var panes: [UInt128] = []
        var tabs: [UInt128] = []
        for project in workspace.projects {
            projects.append(project.id.number)
            for pane in project.panes {
                panes.append(pane.id.number)
                for tab in pane.tabs { tabs.append(tab.id.number) }
            }
        }
        var favorites = workspace.favorites.map { $0.id.number }
        return hasDuplicate(&projects) || hasDuplicate(&panes) || hasDuplicate(&tabs) || hasDuplicate(&favorites)
    }

    /// Whether `numbers` holds one twice (it is sorted on the way).
    private static func hasDuplicate(_ numbers: inout [UInt128]) -> Bool {
        numbers.sort()
        var index = 1
        while index < numbers.count {
            if numbers[index] == numbers[index - 1] { return true }
            index += 1
        }
        return false
    }

    /// Gives every record whose id repeats an earlier one of its kind a fresh id, in the order of the file.
    private static func repairRepeatedIDs(
        _ workspace: inout Workspace, makeID: @escaping () -> WorkspaceID, _ messages: inout [String]
    ) {
        var ids = UniqueIDs(existing: workspace.idsByKind, makeID: makeID)
        for project in workspace.projects.indices {
            ids.ensureUnique(&workspace.projects[project].id, kind: .project, at: "projects[\(project)]", &messages)
        }
        for project in workspace.projects.indices {
            for pane in workspace.projects[project].panes.indices {
                let path = "projects[\(project)].panes[\(pane)]"
                ids.ensureUnique(&workspace.projects[project].panes[pane].id, kind: .pane, at: path, &messages)
            }
        }
        for project in workspace.projects.indices {
            for pane in workspace.projects[project].panes.indices {
                for tab in workspace.projects[project].panes[pane].tabs.indices {
                    let path = "projects[\(project)].panes[\(pane)].tabs[\(tab)]"
                    ids.ensureUnique(
                        &workspace.projects[project].panes[pane].tabs[tab].id, kind: .tab, at: path, &messages)
                }
            }
        }
        for favorite in workspace.favorites.indices {
            ids.ensureUnique(
                &workspace.favorites[favorite].id, kind: .favorite, at: "favorites[\(favorite)]", &messages)
        }
    }
}

/// The ids seen so far, by kind, and a source of fresh ones.
private struct UniqueIDs {
    let existing: [RecordKind: Set<WorkspaceID>]
    let makeID: () -> WorkspaceID
    var seen: [RecordKind: Set<WorkspaceID>] = [:]

    init(existing: [RecordKind: Set<WorkspaceID>], makeID: @escaping () -> WorkspaceID) {
        self.existing = existing
        self.makeID = makeID
    }

    /// Keeps `id` when it is new in its kind; otherwise replaces it with a fresh one and says so.
    mutating func ensureUnique(_ id: inout WorkspaceID, kind: RecordKind, at path: String, _ messages: inout [String]) {
        if seen[kind, default: []].insert(id).inserted { return }
        var fresh = makeID()
        while seen[kind, default: []].contains(fresh) || existing[kind, default: []].contains(fresh) {
            fresh = makeID()
        }
        seen[kind, default: []].insert(fresh)
        messages.append("\(kind) id \(id) at \(path) repeats an earlier \(kind); given the fresh id \(fresh)")
        id = fresh
    }
}
