import Foundation
import StateStore
import Testing
import WorkspaceModel

@testable import WorkspaceStorage

/// The old versions' pane and tab records are the size of the current ones, so that each array a migration step
/// builds can take the storage of the one it has just freed (PaneV1's comment has the figures). A field added to
/// `Pane` or `Tab` breaks this; the fix is padding the old records again, never a change to what they read.
@Suite("Old records sized like the current ones")
struct MigrationLayoutTests {
    @Test func oldPanesAreTheSizeOfAPane() {
        #expect(MemoryLayout<PaneV1>.stride == MemoryLayout<Pane>.stride)
        #expect(MemoryLayout<PaneV2>.stride == MemoryLayout<Pane>.stride)
    }

    @Test func oldTabsAreTheSizeOfATab() {
        #expect(MemoryLayout<TabV2>.stride == MemoryLayout<Tab>.stride)
    }

    /// The padding is not a field: a pane written as version 1 or 2 has the keys it always had.
    @Test func thePaddingIsNeverWritten() throws {
        let pane = PaneV1(
            id: WorkspaceID("00000000-0000-4000-8000-000000000001")!, folder: "/srv", viewMode: 1,
            unknownFields: UnknownFields())
        let written = String(decoding: try JSONEncoder().encode(pane), as: UTF8.self)
        #expect(written.contains("padding") == false)
        #expect(written.contains("\"viewMode\":1"))
        let two = PaneV2(
            id: WorkspaceID("00000000-0000-4000-8000-000000000002")!, folder: "/srv", viewMode: 2,
            unknownFields: UnknownFields())
        #expect(String(decoding: try JSONEncoder().encode(two), as: UTF8.self).contains("padding") == false)
    }
}
