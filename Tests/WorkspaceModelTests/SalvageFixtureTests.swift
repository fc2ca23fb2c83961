import Foundation
import StateStore
import StateStoreTesting
import Testing

@testable import WorkspaceModel
@testable import WorkspaceStorage

/// Workspace files with one bad record or field: each salvages with everything else intact, and the report says
/// what happened.
@Suite("Workspace salvage fixtures")
struct SalvageFixtureTests {
    func salvage(_ name: String) throws -> DecodedState<Workspace> {
        let data = try Fixtures.data("salvage/" + name)
        #expect(throws: StateDecodingError.self, "the strict decode refuses \(name)") {
            try workspaceCodec().decode(data)
        }
        return try workspaceCodec().decode(data, salvaging: true)
    }

    @Test(arguments: [
        "v1-age-number.json", "v2-pane-viewmode-string.json", "v3-favorite-createdat-number.json",
        "v4-tab-missing-id.json",
    ])
    func everySalvageFixturePassesTheVerifier(name: String) throws {
        let verifier = FixtureVerifier(schema: try WorkspaceSchema.make())
        let result = try verifier.verifySalvage(Fixtures.root.appendingPathComponent("salvage/" + name))
        #expect(result.salvage.changeCount >= 1)
        #expect(result.decoded.storedVersion == Int(name.dropFirst().prefix(1)))
    }

    @Test func theVerifierRefusesAFixtureThatNeedsNoSalvage() throws {
        let verifier = FixtureVerifier(schema: try WorkspaceSchema.make())
        #expect(throws: FixtureFailure.self) {
            try verifier.verifySalvage(Fixtures.versions.appendingPathComponent("v1.json"))
        }
    }

    @Test func aVersionOneAgeWrittenAsANumberIsReadAsText() throws {
        let salvaged = try salvage("v1-age-number.json")
        let report = try #require(salvaged.salvage)
        #expect(report.coercedFields == [.init(path: "owner.age", from: "36", to: "\"36\"")])
        #expect(report.droppedRecords.isEmpty && report.defaultedFields.isEmpty)
        #expect(report.reason.contains("owner.age"))
        // Every project, pane, favorite and unknown field is there: the same state as the clean version 1 file.
        #expect(salvaged.model == (try decodeFixture("versions/v1.json")).model)
        #expect(salvaged.model.projects.count == 2 && salvaged.model.favorites.count == 1)
        #expect(salvaged.stepsApplied == [1...2, 2...3, 3...4])
    }

    @Test func aVersionTwoPaneWithViewModeAsAStringIsCoercedOrDroppedFromItsProject() throws {
        let salvaged = try salvage("v2-pane-viewmode-string.json")
        let report = try #require(salvaged.salvage)
        #expect(
            report.coercedFields == [.init(path: "projects[0].panes[0].viewMode", from: "\"2\"", to: "2")])
        #expect(report.droppedRecords.map(\.path) == ["projects[0].panes[1]"])
        #expect(report.droppedRecords.first?.id == "22222222-2222-4222-8222-222222222222")
        #expect(report.droppedRecords.first?.reason.contains("expected Int") == true)
        let project = try #require(salvaged.model.projects.first)
        #expect(project.name == "Compiler")
        #expect(project.panes.map(\.folder) == ["/src/compiler", "/src/docs"])
        #expect(project.panes.map(\.viewMode) == [.columns, .list])
        #expect(project.panes[0].tabs.count == 2 && project.panes[0].focusedTabIndex == 1)
        #expect(salvaged.model.favorites.map(\.name) == ["Source"])
        #expect(salvaged.model.owner.alias == "Grace" && salvaged.model.owner.email == "grace@example.com")
    }

    @Test func aVersionThreeFavoriteWithANumericDateLosesOnlyTheDate() throws {
        let salvaged = try salvage("v3-favorite-createdat-number.json")
        let report = try #require(salvaged.salvage)
        #expect(report.defaultedFields.map(\.path) == ["favorites[0].createdAt"])
        #expect(report.droppedRecords.isEmpty && report.coercedFields.isEmpty)
        var expected = try decodeFixture("versions/v3.json").model
        expected.favorites[0].createdAt = nil
        #expect(salvaged.model == expected)
        #expect(salvaged.model.favorites.map(\.name) == ["Papers", "Archive"])
    }

    @Test func aVersionFourTabWithoutAnIdIsDroppedAndTheFocusRepaired() throws {
        let salvaged = try salvage("v4-tab-missing-id.json")
        let report = try #require(salvaged.salvage)
        #expect(report.droppedRecords.map(\.path) == ["projects[0].panes[0].tabs[1]"])
        #expect(report.droppedRecords.first?.id == nil)
        #expect(report.droppedRecords.first?.reason.contains("missing key projects[0].panes[0].tabs[1].id") == true)
        let pane = try #require(salvaged.model.projects.first?.panes.first)
        #expect(pane.tabs.map(\.folder) == ["/apollo/guidance"])
        #expect(pane.hasValidFocus)
        #expect(!salvaged.repairs.isEmpty, "the focused tab index pointed past the dropped tab")
        #expect(salvaged.model.favorites.count == 1 && salvaged.model.owner.alias == "margaret")
    }

    @Test func whatIsInsideADroppedProjectIsNotListedSeparately() throws {
        let text = #"""
            {"version": 4, "minReaderVersion": 4, "activeProjectID": "11111111-1111-4111-8111-111111111111",
             "owner": {"alias": "a"}, "favorites": [{"id": "not-a-uuid", "name": "x", "path": "/x"}],
             "projects": [
              {"id": "11111111-1111-4111-8111-111111111111", "name": "dropped", "layout": "quad",
               "panes": [{"id": "21111111-1111-4111-8111-111111111111", "folder": 5, "viewMode": "list"},
                         {"folder": "/no-id", "viewMode": "list"}], "extra": 1e400},
              {"id": "12222222-2222-4222-8222-222222222222", "name": "kept", "layout": "split", "panes": []}
             ]}
            """#
        let salvaged = try workspaceCodec().decode(Data(text.utf8), salvaging: true)
        let report = try #require(salvaged.salvage)
        #expect(report.droppedRecords.map(\.path) == ["projects[0]", "favorites[0]"])
        #expect(report.droppedRecords.map(\.id) == ["11111111-1111-4111-8111-111111111111", "not-a-uuid"])
        #expect(report.droppedRecords[0].reason.contains("projects[0].extra"), "\(report.droppedRecords[0])")
        // The pane's folder was coerced, and its second pane dropped, inside the project that went.
        #expect(report.coercedFields.isEmpty)
        #expect(salvaged.model.projects.map(\.name) == ["kept"])
        // Repairs run after a salvage: the active project went with its record.
        #expect(salvaged.model.activeProjectID == nil)
        #expect(salvaged.repairs.contains { $0.contains("activeProjectID") })
    }

    @Test func aDuplicateKeyInAPaneDropsOnlyThePane() throws {
        let text = #"""
            {"version": 4, "minReaderVersion": 4, "activeProjectID": null, "owner": {"alias": "a"}, "favorites": [],
             "projects": [{"id": "11111111-1111-4111-8111-111111111111", "name": "kept", "layout": "quad",
               "panes": [{"id": "21111111-1111-4111-8111-111111111111", "folder": "/a", "folder": "/b",
                          "viewMode": "list"},
                         {"id": "22222222-2222-4222-8222-222222222222", "folder": "/c", "viewMode": "list"}]}]}
            """#
        let salvaged = try workspaceCodec().decode(Data(text.utf8), salvaging: true)
        let report = try #require(salvaged.salvage)
        #expect(report.reason == #"duplicate key "folder" in projects[0].panes[0]"#)
        #expect(report.droppedRecords.map(\.path) == ["projects[0].panes[0]"])
        #expect(salvaged.model.projects.map(\.name) == ["kept"])
        #expect(salvaged.model.projects[0].panes.map(\.folder) == ["/c"])
    }
}
