import Foundation
import StateStoreTesting
import Testing
import WorkspaceModel
import WorkspaceStorage

/// Every fixture loads to the value, report and saved bytes recorded before the model types were rewritten onto
/// @StateModel (Fixtures/snapshots; `RECORD_FIXTURE_SNAPSHOTS=1 swift test` records them again).
@Suite struct FixtureSnapshotTests {
    @Test(arguments: ["versions", "edge"])
    func loadingEveryFixtureGivesItsRecordedSnapshot(folder: String) throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        let compared = try FixtureSnapshots(schema: try WorkspaceSchema.make()).verify(
            fixtures: fixtures.appendingPathComponent(folder),
            snapshots: fixtures.appendingPathComponent("snapshots/" + folder),
            record: ProcessInfo.processInfo.environment["RECORD_FIXTURE_SNAPSHOTS"] == "1")
        #expect(compared.count >= 2)
    }
}
