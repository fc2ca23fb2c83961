import Testing

@testable import WorkspaceModel

/// ``ViewMode`` and ``Layout`` hold their raw value in one word, and behave as the raw value they were made from.
@Suite("View modes and layouts in one word")
struct CompactRawValueTests {
    @Test func eachTakesOneWord() {
        #expect(MemoryLayout<ViewMode>.size == 8)
        #expect(MemoryLayout<Layout>.size == 8)
        // A pane: id 16, folder 16, view mode 8, focused index 8, tabs 8, unknown fields 8.
        #expect(MemoryLayout<Pane>.stride == 64)
    }

    @Test(arguments: ["list", "icons", "columns", "gallery", "", "List", "a view mode with a long name"])
    func aViewModeKeepsItsRawValue(rawValue: String) {
        let mode = ViewMode(rawValue: rawValue)
        #expect(mode.rawValue == rawValue)
        #expect(mode == ViewMode(rawValue: rawValue))
        #expect(mode.hashValue == ViewMode(rawValue: rawValue).hashValue)
        #expect(mode.isKnown == ["list", "icons", "columns"].contains(rawValue))
    }

    @Test func equalExactlyWhenTheRawValuesAre() {
        #expect(ViewMode(rawValue: "list") == .list)
        #expect(ViewMode(rawValue: "list") != .icons)
        #expect(ViewMode(rawValue: "gallery") != ViewMode(rawValue: "Gallery"))
        #expect(
            Set([ViewMode.list, .icons, .columns, ViewMode(rawValue: "gallery"), ViewMode(rawValue: "list")]).count == 4
        )
        #expect(Layout(rawValue: "split") == .split && Layout(rawValue: "grid").rawValue == "grid")
        #expect(Layout.knownValues.map(\.rawValue) == ["single", "split", "quad"])
        #expect(ViewMode.knownValues.map(\.rawValue) == ["list", "icons", "columns"])
    }
}
