import Foundation
import TestSupport
import Testing
import WorkspaceAPI
import WorkspaceDaemon
import WorkspaceModel
import WorkspaceStorage

/// The release table: every release knows which schema each earlier one reads.
@Suite("Release table")
struct ReleaseSchemasTests {
    @Test func thisReleaseIsInTheTableWithTheSchemaItWrites() {
        #expect(ReleaseSchemas.shipped.last?.release == Release.version, "add this release's row")
        #expect(ReleaseSchemas.schemaVersion(forRelease: Release.version) == WorkspaceSchema.currentVersion)
        let versions = ReleaseSchemas.shipped.map(\.schemaVersion)
        #expect(versions == versions.sorted(), "a release never reads less than the one before")
    }

    @Test func aPackageRevisionOrPatchReadsWhatItsReleaseReads() {
        let table = [
            ReleaseSchema(release: "0.1.0", schemaVersion: 2), ReleaseSchema(release: "0.2.0", schemaVersion: 3),
            ReleaseSchema(release: "0.10.0", schemaVersion: 4),
        ]
        #expect(ReleaseSchemas.schemaVersion(forRelease: "0.1.0", in: table) == 2)
        #expect(ReleaseSchemas.schemaVersion(forRelease: "0.1.7", in: table) == 2)
        #expect(ReleaseSchemas.schemaVersion(forRelease: "0.2.0+2", in: table) == 3)
        #expect(ReleaseSchemas.schemaVersion(forRelease: "0.2.0-1", in: table) == 3)
        #expect(ReleaseSchemas.schemaVersion(forRelease: "1:0.9.3", in: table) == 3, "an epoch is dropped")
        #expect(ReleaseSchemas.schemaVersion(forRelease: "0.10.0", in: table) == 4, "numbers, not text")
        #expect(ReleaseSchemas.schemaVersion(forRelease: "0.0.9", in: table) == nil, "before the first release")
        #expect(ReleaseSchemas.schemaVersion(forRelease: "latest", in: table) == nil)
    }

    @Test func migrateForAReleaseOfThisSchemaHasNothingToDoAndAnUnknownOneIsRefused() async throws {
        let harness = try TestDaemon()
        let original = try WorkspaceFixtures.data("versions/v4.json")
        try harness.writeState(original)
        let same = try await harness.runTool(["migrate", "--state", harness.statePath, "--for-release", "0.1.0"])
        #expect(same.status == 0 && same.output.contains("release 0.1.0 reads schema version 4; nothing to do"))
        let unknown = try await harness.runTool([
            "migrate", "--state", harness.statePath, "--for-release", "0.0.1",
        ])
        #expect(unknown.status == 64, "\(unknown.output)")
        #expect(unknown.output.contains("release 0.0.1 is not in this release's table (0.1.0, 0.2.0)"))
        let both = try await harness.runTool([
            "migrate", "--state", harness.statePath, "--for-release", "0.1.0", "--to", "3",
        ])
        #expect(both.status == 64)
        #expect(try harness.stateBytes() == original)
    }
}
