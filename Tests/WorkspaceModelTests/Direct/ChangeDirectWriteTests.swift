import Foundation
import StateStore
import Testing

@testable import WorkspaceModel

/// The change journal writes each change with `WorkspaceChange`'s direct writer (`encodedForJournal()`): the bytes
/// must be those `JSONEncoder` gives with sorted keys and unescaped slashes, which the journal writes for a change
/// without a direct writer, and must read back as the change.
@Suite("Changes written directly")
struct ChangeDirectWriteTests {
    static func encodable(_ change: WorkspaceChange) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(change), as: UTF8.self)
    }

    @Test(arguments: ChangeDirectReadTests.changes)
    func everyCaseIsWrittenAsJSONEncoderWritesIt(change: WorkspaceChange) throws {
        var writer = StateDirectWriter(dateCoding: .deferredToDate, capacity: 64, rootMembers: [])
        try change.write(stateWriter: &writer)
        let written = String(decoding: writer.takeData(), as: UTF8.self)
        #expect(written == (try Self.encodable(change)))
        #expect(String(decoding: try change.encodedForJournal(), as: UTF8.self) == written)
        #expect(ChangeDirectReadTests.direct(written) == change, "\(written)")
    }

    /// Text that needs escaping, and dates with fractions, as the journal records a favorite added over the API.
    @Test(arguments: [
        WorkspaceChange.createProject(id: sequentialID(3), name: "tab\there \u{1} \"q\" \\ / é", layout: .split),
        .addFavorite(id: sequentialID(4), name: "n", path: "/a/b", createdAt: Date(timeIntervalSince1970: 1.1e9 + 0.3)),
        .addFavorite(id: sequentialID(5), name: "", path: "/", createdAt: Date(timeIntervalSinceReferenceDate: -1.5)),
        .updateOwner(alias: "\u{2028}", email: "a@b.c"),
    ])
    func escapesAndDatesAreWrittenAsJSONEncoderWritesThem(change: WorkspaceChange) throws {
        #expect(String(decoding: try change.encodedForJournal(), as: UTF8.self) == (try Self.encodable(change)))
    }
}
