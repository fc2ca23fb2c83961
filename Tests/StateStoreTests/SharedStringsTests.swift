import Foundation
import Testing

@testable import StateCoding

/// Issue 46's peak memory: a string read again shortly after an equal one shares its storage, and every string
/// read is still the one in the document.
@Suite("Equal strings read close together share storage")
struct SharedStringsTests {
    /// The items of `json`, an array of ``PartItem`` objects, read directly.
    static func read(_ json: String) throws -> [PartItem] {
        try Data(json.utf8).withUnsafeBytes { bytes in
            var reader = StateDirectReader(bytes: bytes)
            let items = try [PartItem](stateReader: &reader)
            try reader.finish()
            return items
        }
    }

    /// Where a string's UTF-8 is stored: equal for two strings that share storage.
    static func storage(_ string: String) -> UnsafeRawPointer? {
        string.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
    }

    @Test func anEqualLongStringSharesAndEveryOtherIsItsOwn() throws {
        let path = "/home/margaret/work/atlas-beacon-12/src"
        let items = try Self.read(
            """
            [{"id":"\(path)","note":"\(path)"},{"id":"\(path)/docs","note":"short"},\
            {"id":"\(path)\\/docs","note":"short"}]
            """)
        #expect(items.map(\.id) == [path, path + "/docs", path + "/docs"])
        #expect(items.map(\.note) == [path, "short", "short"])
        #expect(Self.storage(items[0].id) != nil)
        #expect(Self.storage(items[0].id) == Self.storage(items[0].note), "an equal string did not share")
        #expect(Self.storage(items[1].id) != Self.storage(items[0].id))
        // A string with an escape is made from its unescaped text, equal but never shared.
        #expect(Self.storage(items[2].id) != Self.storage(items[1].id))
        var changed = items[0]
        changed.note += "/more"
        #expect(items[0].note == path && items[0].id == path && changed.note == path + "/more")
    }

    @Test func manyDistinctStringsInOneSlotAreEachTheirOwnText() throws {
        // 2,000 long strings in a table of 256 slots: slots are shared by different strings, each read compares.
        let texts = (0..<2_000).map { "/home/margaret/work/project-\($0 % 700)/folder-\($0)" }
        let json = "[" + texts.map { #"{"id":"\#($0)","note":"\#($0)"}"# }.joined(separator: ",") + "]"
        let items = try Self.read(json)
        #expect(items.map(\.id) == texts)
        #expect(items.map(\.note) == texts)
    }
}
