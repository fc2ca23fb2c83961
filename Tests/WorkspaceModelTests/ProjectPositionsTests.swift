import Foundation
import TestSupport
import Testing

@testable import WorkspaceModel

/// A run of changes finds the projects its updates name through a table once the scans have cost as much as
/// building it (``ProjectPositions``): the positions are the scan's, and a run gives what its changes give one at
/// a time, whatever adds, removes or replaces projects in between.
@Suite(.heavy) struct ProjectPositionsTests {
    /// A workspace of `count` projects with sequential ids from 0.
    static func workspace(projects count: Int) -> Workspace {
        Workspace(
            projects: (0..<count).map { Project(id: sequentialID($0), name: "p\($0)", layout: .split, panes: []) },
            favorites: [], activeProjectID: nil, owner: Owner(alias: "me", email: "me@example.com"))
    }

    @Test func positionsAreTheScansBeforeAndAfterTheTable() throws {
        var workspace = Self.workspace(projects: 200)
        // The first project's id again at the end: the first is the one found, as a scan finds it.
        workspace.projects.append(workspace.projects[3])
        workspace.projects[200].name = "repeated"
        var positions = ProjectPositions()
        // The last project, then others: 128 × 201 projects compared builds the table within 130 rounds.
        for _ in 0..<140 {
            for number in [199, 0, 3, 57] {
                let id = sequentialID(number)
                #expect(try positions.index(of: id, in: workspace.projects) == workspace.projectIndex(id))
            }
        }
        #expect(positions.holdsTable)
        #expect(throws: WorkspaceError.notFound(kind: .project, id: sequentialID(500))) {
            try positions.index(of: sequentialID(500), in: workspace.projects)
        }
        positions.forget()
        #expect(!positions.holdsTable)
        #expect(try positions.index(of: sequentialID(3), in: workspace.projects) == 3)
    }

    @Test func aSmallWorkspaceIsAlwaysScanned() throws {
        let workspace = Self.workspace(projects: ProjectPositions.smallestTabled - 1)
        var positions = ProjectPositions()
        for _ in 0..<10_000 { _ = try positions.index(of: sequentialID(62), in: workspace.projects) }
        #expect(!positions.holdsTable)
    }

    /// Thousands of updates with creates, deletes and restores among them (each of which drops the table), and
    /// changes that fail: applied as one run and one at a time, the workspaces and the failures are the same.
    @Test func aRunGivesWhatItsChangesGiveOneAtATime() throws {
        var generator = SystemRandomNumberGenerator()
        let start = Self.workspace(projects: 300)
        var changes: [WorkspaceChange] = []
        var next = 300
        for index in 0..<6000 {
            let target = sequentialID(Int.random(in: 0..<(next + 5), using: &generator))
            // 500 updates between two of the others: about 256 of them build the table (128 × 300 projects
            // compared, 150 a scan), the rest use it.
            switch index % 1500 {
            case 100:
                changes.append(.createProject(id: sequentialID(next), name: "new \(next)", layout: .single))
                next += 1
            case 600: changes.append(.deleteProject(id: target))
            case 1100: changes.append(.restoreProject(project: start.projects[7], index: 0))
            default:
                changes.append(
                    .updateProject(id: target, name: "r\(index)", layout: index % 7 == 0 ? .split : nil))
            }
        }
        // One at a time, each change applied alone, skipping those that fail (as the API refuses them).
        var alone = start
        var applied: [WorkspaceChange] = []
        for change in changes {
            var attempt = alone
            if (try? change.apply(to: &attempt)) != nil {
                alone = attempt
                applied.append(change)
            }
        }
        #expect(applied.count > 5000)
        var run = start
        #expect(WorkspaceChange.applyInPlace(applied, to: &run) == nil)
        #expect(run == alone)
        // A change that fails in a run is reported at its place, with the scan's error.
        var failing = start
        let missing = sequentialID(9999)
        let failure = WorkspaceChange.applyInPlace(
            applied.prefix(4000) + [.updateProject(id: missing, name: "x", layout: nil)], to: &failing)
        #expect(failure?.position == 4000)
        #expect(failure?.error == .notFound(kind: .project, id: missing))
        // In chunks of 97 with a memo, as a replay applies them: the same workspace, and each chunk after the
        // table was built finds it in the memo (a new one would scan again).
        var chunked = start
        var memo: Any?
        for offset in stride(from: 0, to: applied.count, by: 97) {
            let chunk = applied[offset..<min(offset + 97, applied.count)].map { Optional($0) }
            #expect(WorkspaceChange.applyInPlace(chunk, to: &chunked, memo: &memo) == nil)
        }
        #expect(chunked == alone)
        #expect(memo is ProjectPositions)
    }

    /// The positions a run left in the memo go on in the next run: the table built in the first is used, not built
    /// again, while a run without the memo starts scanning.
    @Test func theMemoCarriesTheTableToTheNextRun() throws {
        var workspace = Self.workspace(projects: 300)
        let renames = (0..<400).map {
            WorkspaceChange?.some(.updateProject(id: sequentialID(299), name: "r\($0)", layout: nil))
        }
        var memo: Any?
        #expect(WorkspaceChange.applyInPlace(renames, to: &workspace, memo: &memo) == nil)
        let kept = try #require(memo as? ProjectPositions)
        #expect(kept.holdsTable)
        let one = [WorkspaceChange?.some(.updateProject(id: sequentialID(5), name: "next", layout: nil))]
        #expect(WorkspaceChange.applyInPlace(one, to: &workspace, memo: &memo) == nil)
        #expect((memo as? ProjectPositions)?.holdsTable == true)
        #expect(workspace.projects[5].name == "next")
        #expect(workspace.projects[299].name == "r399")
        // A project added drops the table: the memo then holds positions without one.
        let added = [WorkspaceChange?.some(.createProject(id: sequentialID(300), name: "new", layout: .split))]
        #expect(WorkspaceChange.applyInPlace(added, to: &workspace, memo: &memo) == nil)
        #expect((memo as? ProjectPositions)?.holdsTable == false)
    }
}
