import Foundation
import StateStore
import TestSupport
import Testing

@testable import WorkspaceModel

/// Fields the schema gives a default (`focusedTabIndex` 0, `tabs` [], the owner's `email` "") load with it when a
/// version 2+ file leaves them out, are reported as defaulted, and are written explicitly by the next save.
@Suite("Missing fields with a schema default")
struct MissingDefaultsTests {
    static let fixture = "edge/missing-defaulted-fields.json"

    @Test func aVersionFourFileMissingThemLoadsWithTheDefaults() throws {
        let decoded = try decodeFixture(Self.fixture)
        let panes = decoded.model.projects[0].panes
        #expect(panes.map(\.focusedTabIndex) == [0, 0, 0])
        #expect(panes.map(\.tabs.count) == [0, 0, 1])
        #expect(decoded.model.owner.email == "")
        #expect(decoded.model.owner.alias == "sparse")
        #expect(
            decoded.fieldsDefaulted == [
                "projects[].panes[].focusedTabIndex": 2, "projects[].panes[].tabs": 2, "owner.email": 1,
            ])
        #expect(decoded.repairs.isEmpty)
    }

    @Test func unknownKeysBesideAMissingFieldAreStillKept() throws {
        let decoded = try decodeFixture(Self.fixture)
        #expect(decoded.model.projects[0].panes[0].unknownFields.values == ["color": .string("teal")])
        #expect(decoded.model.owner.unknownFields.values == ["nickname": .string("sp")])
        #expect(decoded.unknownKeysKept == ["projects[].panes[].color": 1, "owner.nickname": 1])
    }

    @Test func theNextSaveWritesTheDefaultsExplicitly() throws {
        let codec = try workspaceCodec()
        let saved = try codec.encode(try decodeFixture(Self.fixture).model)
        let object = try jsonObject(saved)
        let owner = try #require(object["owner"] as? [String: Any])
        #expect(owner["email"] as? String == "")
        #expect(owner["nickname"] as? String == "sp")
        let panes = try #require((object["projects"] as? [[String: Any]])?.first?["panes"] as? [[String: Any]])
        #expect(panes.map { $0["focusedTabIndex"] as? Int } == [0, 0, 0])
        #expect(panes.map { ($0["tabs"] as? [Any])?.count } == [0, 0, 1])
        #expect(try codec.decode(saved).fieldsDefaulted.isEmpty, "nothing is missing once saved")
    }

    @Test(arguments: [2, 3])
    func versionTwoAndThreeFilesMissingThemLoadToo(version: Int) throws {
        var object = try jsonObject(try Fixtures.data("versions/v\(version).json"))
        var projects = try #require(object["projects"] as? [[String: Any]])
        var panes = try #require(projects[0]["panes"] as? [[String: Any]])
        panes[0]["focusedTabIndex"] = nil
        panes[0]["tabs"] = nil
        projects[0]["panes"] = panes
        object["projects"] = projects
        var owner = try #require(object["owner"] as? [String: Any])
        owner["email"] = nil
        object["owner"] = owner
        let decoded = try workspaceCodec().decode(try JSONSerialization.data(withJSONObject: object))
        let pane = decoded.model.projects[0].panes[0]
        #expect(pane.focusedTabIndex == 0 && pane.tabs.isEmpty)
        #expect(decoded.model.owner.email == "")
        #expect(
            decoded.fieldsDefaulted == [
                "projects[].panes[].focusedTabIndex": 1, "projects[].panes[].tabs": 1, "owner.email": 1,
            ])
    }

    @Test func aPresentValueOfTheWrongTypeIsStillCorrupt() throws {
        let text = String(decoding: try Fixtures.data(Self.fixture), as: UTF8.self)
            .replacingOccurrences(of: #""focusedTabIndex": 0"#, with: #""focusedTabIndex": "first""#)
        #expect {
            try workspaceCodec().decode(Data(text.utf8))
        } throws: { error in
            guard case .corrupt(let reason) = error as? StateDecodingError else { return false }
            return reason.contains("projects[0].panes[1].focusedTabIndex")
        }
    }
}
