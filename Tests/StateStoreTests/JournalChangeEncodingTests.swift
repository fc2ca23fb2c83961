import Foundation
import StateStore
import StateStoreSample
import StateStoreTesting
import Testing

/// What the change journal records for a change without a direct writer: `JSONEncoder`'s bytes with sorted keys and
/// unescaped slashes, the same in every process (unsorted, an object's members follow its dictionary's hash seed),
/// and what a journaled state writes in its segment.
@Suite struct JournalChangeEncodingTests {
    @Test func aChangeWithoutADirectWriterIsEncodedWithSortedKeys() throws {
        let change = NoteChange.rename(id: "a/b", title: "t")
        #expect(
            String(decoding: try change.encodedForJournal(), as: UTF8.self) == #"{"rename":{"id":"a/b","title":"t"}}"#)
    }

    @Test func theJournalHoldsTheEncodedChange() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let state = try openJournaled(try notebookFile(directory), scheduler: ManualPersistenceScheduler())
        try state.apply(NoteChange.add(id: "z/1", title: "zebra"))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        let segment = try #require(names.first { $0.hasPrefix("notebook.json.journal.") })
        let bytes = try Data(contentsOf: URL(fileURLWithPath: directory.file(segment)))
        #expect(bytes.firstRange(of: Data(#"{"add":{"id":"z/1","title":"zebra"}}"#.utf8)) != nil)
    }
}
