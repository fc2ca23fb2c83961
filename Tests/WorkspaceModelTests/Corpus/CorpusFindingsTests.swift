import Foundation
import StateStore
import Testing

@testable import WorkspaceModel

/// What the corrupt-input corpus found, each now fixed and kept as a test. Neither case loses the original bytes:
/// a migrated file's original is kept as `workspace.json.v1.bak`, a quarantined one as `workspace.json.corrupt-*`.
@Suite("Corrupt input corpus: its findings")
struct CorpusFindingsTests {
    /// A version 2 file whose `version` key is damaged (one bit: `"versi/n"`) reads as version 1, which has no
    /// version key. Its panes' `tabs` and `focusedTabIndex` and its owner's `email`, unknown to version 1, are
    /// captured; the 1 → 2 step declares those keys. Before, the captured values stayed in memory under the
    /// declared keys and the first save dropped them without a word, so what was served was not what was saved.
    /// Then the step dropped them and the load report said so. Now the step takes them back, as it takes back
    /// what a rollback to version 1 set aside: nothing is lost, and the save keeps what is served.
    @Test func aMislabelledFilesFieldsThatALaterVersionDeclaresAreTakenBackAndTheSaveKeepsWhatIsServed() throws {
        let damaged = String(decoding: try Fixtures.data("versions/v2.json"), as: UTF8.self)
            .replacingOccurrences(of: #""version": 2"#, with: #""versi/n": 2"#)
        let decoded = try workspaceCodec().decode(Data(damaged.utf8))
        #expect(decoded.storedVersion == 1)
        #expect(decoded.warnings.isEmpty, "\(decoded.warnings)")
        #expect(
            decoded.fieldsTakenBack == [
                "owner.email": 1, "projects[].panes[].focusedTabIndex": 1, "projects[].panes[].tabs": 1,
            ])
        #expect(decoded.unknownKeysKept == ["versi/n": 1], "only the damaged key is still kept")
        let pane = try #require(decoded.model.projects.first?.panes.first)
        #expect(pane.tabs.count == 2 && pane.focusedTabIndex == 1 && pane.unknownFields.isEmpty)
        #expect(decoded.model.owner.email == "grace@example.com" && decoded.model.owner.unknownFields.isEmpty)
        let saved = try workspaceCodec().decode(try workspaceCodec().encode(decoded.model))
        #expect(saved.model == decoded.model, "the save changed the state")
    }

    /// A mislabelled file whose field under a declared key does not read as that field (tabs that are not tabs)
    /// keeps the default, says so, and is no longer kept as an unknown field.
    @Test func aMislabelledFieldThatDoesNotReadIsDroppedWithAWarning() throws {
        let damaged = String(decoding: try Fixtures.data("versions/v2.json"), as: UTF8.self)
            .replacingOccurrences(of: #""version": 2"#, with: #""versi/n": 2"#)
            .replacingOccurrences(of: #""focusedTabIndex": 1"#, with: #""focusedTabIndex": "first""#)
        #expect(damaged.contains(#""first""#))
        let decoded = try workspaceCodec().decode(Data(damaged.utf8))
        #expect(decoded.warnings.count == 1)
        #expect(decoded.warnings.first?.hasPrefix("projects[].panes[].focusedTabIndex: the value kept") == true)
        #expect(decoded.model.projects.first?.panes.first?.focusedTabIndex == 0)
        #expect(decoded.unknownKeysKept == ["versi/n": 1])
    }

    /// A pane whose `focusedTabIndex` is valid JSON that `Int` cannot hold: JSONDecoder refuses the whole
    /// document without a path. Before, that was reported as "not valid JSON" and the salvage policy quarantined
    /// the whole file; now the load is refused saying what is known, and a salvage gives that one field its
    /// default (0), keeping the pane and its tabs.
    @Test(arguments: ["123456789012345678901234567890", "9223372036854775808", "1.5", "1e400"])
    func aNumberItsFieldCannotHoldIsDefaultedInASalvage(number: String) throws {
        let text = String(decoding: try Fixtures.data("versions/v4.json"), as: UTF8.self)
            .replacingOccurrences(of: #""focusedTabIndex": 0"#, with: #""focusedTabIndex": \#(number)"#)
        #expect(text.contains(number))
        #expect {
            try workspaceCodec().decode(Data(text.utf8))
        } throws: { error in
            guard case .corrupt(let reason) = error as? StateDecodingError else { return false }
            return reason.hasPrefix("valid JSON that JSONDecoder refused without naming where")
        }
        let salvaged = try workspaceCodec().decode(Data(text.utf8), salvaging: true)
        let report = try #require(salvaged.salvage)
        #expect(report.reason.hasPrefix("valid JSON that JSONDecoder refused without naming where"))
        #expect(report.droppedRecords.isEmpty)
        #expect(report.defaultedFields.map(\.path) == ["projects[0].panes[0].focusedTabIndex"])
        let pane = try #require(salvaged.model.projects.first?.panes.first)
        #expect(pane.focusedTabIndex == 0)
        #expect(pane.tabs.count == 1)
    }
}
