import Foundation
import StateStore
import TestSupport
import Testing

@testable import WorkspaceModel

@Suite("Unknown keys and enum values are kept")
struct UnknownFieldsTests {
    @Test func unknownKeysInEveryRecordOfVersionOneSurviveMigrationAndSave() throws {
        let decoded = try decodeFixture("versions/v1.json")
        #expect(
            decoded.unknownKeysKept == [
                "theme": 1, "projects[].color": 1, "projects[].panes[].sort": 1, "favorites[].icon": 1,
                "owner.pronouns": 1,
            ])
        let bytes = try workspaceCodec().encode(decoded.model)
        let saved = try jsonObject(bytes)
        // Through three migration steps, each value keeps the text version 1 wrote.
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains(#""sort":{"by": "name", "ascending": true}"#), "\(text)")
        #expect(text.contains(##""theme":{"accent": "#ff8800", "dark": true}"##), "\(text)")
        #expect((saved["theme"] as? [String: Any])?["accent"] as? String == "#ff8800")
        let projects = try #require(saved["projects"] as? [[String: Any]])
        #expect(projects[0]["color"] as? String == "teal")
        let pane = try #require((projects[0]["panes"] as? [[String: Any]])?.first)
        #expect((pane["sort"] as? [String: Any])?["by"] as? String == "name")
        #expect((saved["favorites"] as? [[String: Any]])?.first?["icon"] as? String == "arrow.down")
        #expect((saved["owner"] as? [String: Any])?["pronouns"] as? String == "she/her")
    }

    @Test func unknownKeysInTabsOfVersionTwoAreKept() throws {
        let decoded = try decodeFixture("versions/v2.json")
        #expect(decoded.unknownKeysKept == ["projects[].panes[].tabs[].pinned": 1])
        #expect(decoded.model.projects[0].panes[0].tabs[0].unknownFields.values["pinned"] == .bool(true))
    }

    @Test func unknownKeysAtEveryLevelOfVersionFourAreKeptExactly() throws {
        let decoded = try decodeFixture("edge/unknown-keys-everywhere.json")
        #expect(
            decoded.unknownKeysKept == [
                "rootExtra": 1, "projects[].projectExtra": 1, "projects[].panes[].paneExtra": 1,
                "projects[].panes[].tabs[].tabExtra": 1, "favorites[].favoriteExtra": 1, "owner.ownerExtra": 1,
            ])
        let text = String(decoding: try workspaceCodec().encode(decoded.model), as: UTF8.self)
        // Each value exactly as the file spells it, spaces and all (issue 29: the direct read keeps the text).
        for fragment in [
            #""rootExtra":{"nested": {"deeper": [true, null, "s"]}}"#, #""projectExtra":[1, 2, 3]"#,
            #""paneExtra":null"#, #""tabExtra":{"scroll": 120.5}"#, #""favoriteExtra":false"#, #""ownerExtra":"x""#,
        ] {
            #expect(text.contains(fragment), "saved file lacks \(fragment)")
        }
    }

    @Test func largeIntegersSurviveExactly() throws {
        let saved = try workspaceCodec().encode(try decodeFixture("versions/v3.json").model)
        #expect(String(decoding: saved, as: UTF8.self).contains(#""syncToken":9007199254740993"#))
    }

    @Test func unknownLayoutAndViewModeStringsAreKeptAsWritten() throws {
        let decoded = try decodeFixture("edge/unknown-enum-values.json")
        let project = decoded.model.projects[0]
        #expect(project.layout == Layout(rawValue: "grid"))
        #expect(!project.layout.isKnown)
        #expect(project.panes.map(\.viewMode) == [ViewMode(rawValue: "gallery"), .icons])
        #expect(!project.panes[0].viewMode.isKnown)
        #expect(project.panes[1].viewMode.isKnown)
        let text = String(decoding: try workspaceCodec().encode(decoded.model), as: UTF8.self)
        #expect(text.contains(#""layout":"grid""#))
        #expect(text.contains(#""viewMode":"gallery""#))
    }

    @Test func theStoreKeysAreNotCapturedAsUnknown() throws {
        let decoded = try decodeFixture("versions/v4.json")
        #expect(decoded.unknownKeysKept.isEmpty)
        #expect(decoded.model.unknownFields.isEmpty)
    }
}
