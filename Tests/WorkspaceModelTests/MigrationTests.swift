import Foundation
import StateStore
import TestSupport
import Testing

@testable import WorkspaceModel
@testable import WorkspaceStorage

@Suite("Migrating each shipped version to version 4")
struct MigrationTests {
    @Test func versionOneRunsEveryStepAndGetsEveryDefault() throws {
        let decoded = try decodeFixture("versions/v1.json")
        #expect(decoded.storedVersion == 1)
        #expect(decoded.stepsApplied == [1...2, 2...3, 3...4])
        let workspace = decoded.model
        #expect(workspace.projects.map(\.name) == ["Website", "Notes"])
        #expect(workspace.projects.map(\.layout) == [.split, .single])
        let panes = workspace.projects.flatMap(\.panes)
        #expect(panes.map(\.viewMode) == [.list, .columns, .icons], "0, 2, 1 mapped to strings")
        #expect(panes.map(\.focusedTabIndex) == [0, 0, 0])
        #expect(panes.allSatisfy { $0.tabs.isEmpty })
        #expect(workspace.owner.alias == "Ada", "name renamed alias")
        #expect(workspace.owner.email == "")
        #expect(workspace.favorites.map(\.createdAt) == [nil], "a migrated date is unknown, never now")
        #expect(workspace.activeProjectID == (try id("12222222-2222-4222-8222-222222222222")))
        #expect(
            decoded.fieldsDefaulted == [
                "projects[].panes[].focusedTabIndex": 3, "projects[].panes[].tabs": 3, "owner.email": 1,
            ])
        #expect(decoded.warnings.isEmpty)
        #expect(decoded.repairs.isEmpty)
    }

    @Test func versionTwoKeepsItsTabsFocusAndEmail() throws {
        let decoded = try decodeFixture("versions/v2.json")
        #expect(decoded.stepsApplied == [2...3, 3...4])
        #expect(decoded.fieldsDefaulted.isEmpty, "stored values are not replaced by defaults")
        let pane = try #require(decoded.model.projects.first?.panes.first)
        #expect(pane.viewMode == .columns)
        #expect(pane.focusedTabIndex == 1)
        #expect(pane.tabs.map(\.folder) == ["/src/compiler/lexer", "/src/compiler/parser"])
        #expect(pane.focusedTab?.folder == "/src/compiler/parser")
        #expect(decoded.model.owner == Owner(alias: "Grace", email: "grace@example.com"))
        #expect(decoded.model.activeProjectID == nil)
    }

    @Test func versionThreeKeepsAStoredDateAndLeavesAMissingOneUnknown() throws {
        let decoded = try decodeFixture("versions/v3.json")
        #expect(decoded.stepsApplied == [3...4])
        #expect(decoded.model.favorites.map(\.createdAt) == [Date(timeIntervalSince1970: 1_709_287_200), nil])
        #expect(decoded.model.owner.alias == "alan")
        #expect(decoded.model.projects[0].panes[0].viewMode == .icons)
    }

    @Test func theOwnersAgeIsDroppedAndOldNamesAreNotWrittenBack() throws {
        let codec = try workspaceCodec()
        for version in 1...3 {
            let saved = try jsonObject(try codec.encode(try decodeFixture("versions/v\(version).json").model))
            let owner = try #require(saved["owner"] as? [String: Any])
            #expect(owner["age"] == nil, "v\(version): age is removed by version 4")
            #expect(owner["name"] == nil, "v\(version): name is written as alias only")
            #expect(owner["alias"] is String)
            let panes = try #require((saved["projects"] as? [[String: Any]])?.first?["panes"] as? [[String: Any]])
            #expect(panes.allSatisfy { $0["viewMode"] is String }, "v\(version): viewMode is written as a string")
        }
    }

    @Test func versionFourRunsNoStep() throws {
        let decoded = try decodeFixture("versions/v4.json")
        #expect(decoded.stepsApplied.isEmpty)
        #expect(decoded.model.projects[0].layout == .quad)
        #expect(decoded.model.projects[0].panes[0].tabs.count == 1)
        #expect(decoded.model.favorites[0].createdAt == Date(timeIntervalSince1970: 1_735_787_045))
    }

    @Test func aViewModeNumberWithoutMeaningBecomesListWithAWarningNamingThePane() throws {
        let decoded = try decodeFixture("edge/bad-viewmode-number.json")
        #expect(decoded.model.projects[0].panes.map(\.viewMode) == [.list, .columns])
        #expect(decoded.warnings.count == 1)
        #expect(decoded.warnings.first?.contains("pane 21111111-1111-4111-8111-111111111111") == true)
        #expect(decoded.warnings.first?.contains("viewMode 7") == true)
    }

    @Test func theStoredNumbersMapToTheDocumentedStrings() {
        #expect(ViewMode(storedNumber: 0) == .list)
        #expect(ViewMode(storedNumber: 1) == .icons)
        #expect(ViewMode(storedNumber: 2) == .columns)
        #expect(ViewMode(storedNumber: 3) == nil)
        #expect(ViewMode(storedNumber: -1) == nil)
    }

    @Test func theSchemaIsVersionFourAndStartsEmpty() throws {
        let schema = try WorkspaceSchema.make()
        #expect(schema.currentVersion == 4)
        #expect(schema.minReaderVersion == 4)
        #expect(schema.firstVersion == 1)
        #expect(schema.initialModel() == Workspace())
        #expect(schema.steps(from: 1) == [1...2, 2...3, 3...4])
    }
}
