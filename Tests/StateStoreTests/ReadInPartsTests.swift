import Foundation
import StateModel
import TestSupport
import Testing

@testable import StateCoding

/// A record with a default and unknown fields, for arrays read in two parts.
@StateModel
struct PartItem: Sendable, Equatable {
    var id: String
    var note: String = ""
    var unknownFields = UnknownFields()
}

/// Issue 29's ready-time goal: a large array at the root is read in two parts, the second on another thread
/// from a guessed element start, used only when the first part arrives exactly there. Every answer is the
/// one-part read's.
@Suite("Arrays read in two parts", .heavy)
struct ReadInPartsTests {
    /// An array of `count` items; `element` may replace the text of any.
    static func document(count: Int, element: (Int) -> String? = { _ in nil }) -> Data {
        let items = (0..<count).map { index in
            element(index)
                ?? (index % 3 == 0 ? #"{"id":"i\#(index)","x":\#(index)}"# : #"{"id":"i\#(index)","note":"n"}"#)
        }
        return Data(("[" + items.joined(separator: ",") + "]").utf8)
    }

    /// The read of `data` in one part and in parts: the items (or the error), defaults and unknown keys.
    struct Outcome: Equatable {
        var items: [PartItem]?
        var error: String?
        var defaulted: [String: Int] = [:]
        var unknown: [String: Int] = [:]
        var parts = 0
    }

    static func read(_ data: Data, inParts: Bool) -> Outcome {
        data.withUnsafeBytes { bytes in
            var reader = StateDirectReader(bytes: bytes)
            reader.splitsArraysFrom = inParts ? 0 : nil
            var outcome = Outcome()
            do {
                outcome.items = try [PartItem](stateReader: &reader)
                try reader.finish()
            } catch {
                outcome.items = nil
                outcome.error = "\(error)"
            }
            outcome.defaulted = reader.fieldsDefaulted
            outcome.unknown = reader.unknownKeysKept
            outcome.parts = reader.arraysReadInParts
            return outcome
        }
    }

    @Test func aLargeArrayIsReadInTwoPartsWithTheSameAnswer() {
        let data = Self.document(count: 5_000)
        let whole = Self.read(data, inParts: false)
        var parts = Self.read(data, inParts: true)
        #expect(parts.parts == 1, "the array was not read in two parts")
        #expect(whole.items?.count == 5_000 && whole.error == nil)
        #expect(whole.defaulted == ["[].note": 1_667] && whole.unknown == ["[].x": 1_667])
        parts.parts = 0
        #expect(parts == whole)
        // The two parts are joined in an array of their size, not one grown by doubling (which leaves up to half
        // of it unused): the capacity is the count, give or take what the allocator rounds up.
        let joined = parts.items ?? []
        #expect(joined.capacity - joined.count < 64, "capacity \(joined.capacity) for \(joined.count) items")
    }

    @Test func aGuessAtAnotherDepthIsNotUsed() {
        // The middle of the document falls in the unknown field of one large item: an array of objects that start
        // as the items do, so the guess is an element of that array, which reads as an item to its `]`.
        let nested = "[" + Array(repeating: #"{"id":"x"}"#, count: 5_000).joined(separator: ",") + "]"
        let data = Self.document(count: 501) { $0 == 250 ? #"{"id":"big","y":\#(nested)}"# : nil }
        let whole = Self.read(data, inParts: false)
        let parts = Self.read(data, inParts: true)
        #expect(whole.items?.count == 501)
        #expect(parts.parts == 0, "a part that started inside an item was used")
        #expect(parts == whole)
    }

    @Test(arguments: [10, 1_990, 1_999])
    func anErrorInEitherPartIsTheOnePartReadsError(at bad: Int) {
        let data = Self.document(count: 2_000) { $0 == bad ? #"{"id":7}"# : nil }
        let whole = Self.read(data, inParts: false)
        let parts = Self.read(data, inParts: true)
        #expect(whole.error != nil)
        #expect(parts.error == whole.error && parts.items == nil)
    }

    @Test func aTruncatedArrayIsRefusedAsInOnePart() {
        var data = Self.document(count: 2_000)
        data.removeLast()
        #expect(Self.read(data, inParts: true).error == Self.read(data, inParts: false).error)
        #expect(Self.read(data, inParts: false).error != nil)
    }
}
