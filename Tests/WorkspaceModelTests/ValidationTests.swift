import Foundation
import Testing

@testable import WorkspaceModel

@Suite("Validation rules for new data")
struct ValidationTests {
    @Test(arguments: [
        "a", "Website", "Ünïcödé 名前 🚀", String(repeating: "x", count: 256), String(repeating: "é", count: 256),
    ])
    func acceptedNames(name: String) {
        #expect(throws: Never.self) { try Validation.name(name, field: "name") }
    }

    @Test(arguments: [
        "", String(repeating: "x", count: 257), "line\nbreak", "nul\u{0}", "bell\u{7}", "del\u{7F}", "c1\u{85}",
        "sep\u{2028}",
    ])
    func rejectedNames(name: String) {
        #expect(throws: WorkspaceError.self) { try Validation.name(name, field: "name") }
    }

    @Test func aRejectedNameNamesItsField() {
        #expect(throws: WorkspaceError.invalid(field: "alias", reason: "257 characters; at most 256 allowed")) {
            try Validation.name(String(repeating: "x", count: 257), field: "alias")
        }
    }

    @Test(arguments: ["/", "/home/ada", "/with space/ünï", "/" + String(repeating: "a", count: 4095)])
    func acceptedPaths(path: String) {
        #expect(throws: Never.self) { try Validation.path(path, field: "folder") }
    }

    @Test(arguments: ["", "relative", "./x", "~/x", "/nul\u{0}", "/" + String(repeating: "a", count: 4096)])
    func rejectedPaths(path: String) {
        #expect(throws: WorkspaceError.self) { try Validation.path(path, field: "folder") }
    }

    @Test func thePathLimitCountsBytesNotCharacters() {
        let path = "/" + String(repeating: "é", count: 2048)
        #expect(path.count == 2049)
        #expect(throws: WorkspaceError.invalid(field: "folder", reason: "4097 bytes; at most 4096 allowed")) {
            try Validation.path(path, field: "folder")
        }
    }

    @Test func onlyKnownEnumValuesAreAcceptedForNewData() {
        for layout in Layout.knownValues {
            #expect(throws: Never.self) { try Validation.known(layout, field: "layout") }
        }
        for mode in ViewMode.knownValues {
            #expect(throws: Never.self) { try Validation.known(mode, field: "viewMode") }
        }
        #expect(throws: WorkspaceError.self) { try Validation.known(ViewMode(rawValue: "List"), field: "viewMode") }
    }

    @Test func errorsDescribeThemselves() {
        #expect(WorkspaceError.notFound(kind: .pane, id: sequentialID(1)).description.contains("no pane with id"))
        #expect(WorkspaceError.invalid(field: "name", reason: "r").description == "invalid name: r")
        #expect(WorkspaceError.alreadyExists(kind: .tab, id: sequentialID(1)).description.contains("a tab with id"))
    }

    @Test func enumRawValuesAreTheDocumentedAPI() {
        #expect(Layout.knownValues.map(\.rawValue) == ["single", "split", "quad"])
        #expect(ViewMode.knownValues.map(\.rawValue) == ["list", "icons", "columns"])
        #expect(RecordKind.allCases.map(\.rawValue) == ["project", "pane", "tab", "favorite"])
    }
}
