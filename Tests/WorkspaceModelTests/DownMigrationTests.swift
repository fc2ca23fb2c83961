import Foundation
import StateStore
import StateStoreTesting
import Testing

@testable import WorkspaceModel
@testable import WorkspaceStorage

/// The workspace's reverse steps: version 4 written as 3, 2 and 1 for a rollback, each matching its fixture
/// (Fixtures/down/vN.json, written from Fixtures/down/v4.json), each read by the older version's types as that
/// release would read it, and each coming back up to the same workspace.
@Suite("Workspace down migrations")
struct WorkspaceDownMigrationTests {
    static func source() throws -> Workspace { try decodeFixture("down/v4.json").model }

    @Test func everyVersionCanBeReached() throws {
        #expect(try WorkspaceSchema.make().lowestReachableVersion == 1)
    }

    @Test(arguments: [3, 2, 1])
    func theSourceWrittenDownMatchesItsFixture(version: Int) throws {
        try FixtureVerifier(schema: try WorkspaceSchema.make())
            .verifyDown(
                try Self.source(), to: version, expected: try Fixtures.data("down/v\(version).json"),
                name: "down/v\(version).json", prettyPrinted: true)
    }

    @Test func eachStepSaysWhatItSetAsideAndDefaulted() throws {
        let codec = try workspaceCodec()
        let model = try Self.source()
        let three = try codec.encode(model, downTo: 3)
        #expect(three.fieldsSetAside == ["projects[].panes[].viewModeName": 1])
        #expect(three.fieldsDefaulted == ["owner.age": 1])
        let two = try codec.encode(model, downTo: 2)
        #expect(two.fieldsSetAside == ["projects[].panes[].viewModeName": 1, "favorites[].createdAt": 1])
        let one = try codec.encode(model, downTo: 1)
        #expect(one.stepsReverted == [3...4, 2...3, 1...2])
        #expect(
            one.fieldsSetAside == [
                "projects[].panes[].viewModeName": 1, "favorites[].createdAt": 1, "owner.email": 1,
                "projects[].panes[].focusedTabIndex": 2, "projects[].panes[].tabs": 2,
            ])
        let up = try codec.decode(one.data)
        #expect(up.storedVersion == 1 && up.stepsApplied == [1...2, 2...3, 3...4])
        #expect(up.model == model)
        #expect(up.fieldsDefaulted.isEmpty, "every field came back: \(up.fieldsDefaulted)")
        #expect(up.warnings.isEmpty, "\(up.warnings)")
    }

    /// What the older release reads: its own types decode the file, with the newer fields among its unknown
    /// fields (which it keeps and writes back).
    @Test func theOlderReleaseReadsItsOwnFormat() throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let one = try decoder.decode(WorkspaceV1.self, from: try Fixtures.data("down/v1.json"))
        #expect(one.projects.first?.panes.map(\.viewMode) == [2, 0])
        #expect(one.owner.name == "margaret" && one.owner.age == "")
        #expect(one.owner.unknownFields.values["email"] == .string("margaret@example.com"))
        #expect(one.projects.first?.panes.first?.unknownFields.values["tabs"] != nil)
        let three = try decoder.decode(WorkspaceV3.self, from: try Fixtures.data("down/v3.json"))
        #expect(three.favorites.first?.createdAt != nil)
        #expect(three.projects.first?.panes.last?.unknownFields.values["viewModeName"] == .string("gallery"))
    }

    /// A pane whose mode a version 3 release changed after the rollback: the set-aside name is stale, not taken.
    @Test func aViewModeChangedByTheOlderReleaseWins() throws {
        let text = try String(decoding: Fixtures.data("down/v3.json"), as: UTF8.self)
        let changed = text.replacingOccurrences(
            of: #""viewMode" : 0,\s+"viewModeName" : "gallery""#, with: #""viewMode" : 1, "viewModeName" : "gallery""#,
            options: .regularExpression)
        #expect(changed != text)
        let up = try workspaceCodec().decode(Data(changed.utf8))
        let pane = try #require(up.model.projects.first?.panes.last)
        #expect(pane.viewMode == .icons && pane.unknownFields.isEmpty)
    }

    /// Every shipped fixture of every version, loaded and written down to every version, comes back unchanged
    /// (FixtureVerifier runs the way down on each).
    @Test func everyShippedFixtureGoesDownAndBack() throws {
        let verifier = FixtureVerifier(schema: try WorkspaceSchema.make())
        let results = try verifier.verifyDirectory(Fixtures.versions)
        #expect(results.count == 4)
        for result in results {
            #expect(try verifier.verifyWayDown(result.decoded.model, name: result.name).count == 3)
        }
    }
}
