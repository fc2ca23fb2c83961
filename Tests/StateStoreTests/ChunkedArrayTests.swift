import Foundation
import StateStore
import TestSupport
import Testing

@Suite(.heavy) struct ChunkedArrayTests {
    private let capacity = ChunkedArray<Int>.chunkCapacity

    @Test func behavesLikeAnArrayUnderRandomEdits() {
        let seed = UInt64.random(in: 0...UInt64.max)
        var generator = SplitMix64(seed: seed)
        var reference: [Int] = []
        var chunked = ChunkedArray<Int>()
        for step in 0..<800 {
            let choice = Int.random(in: 0..<10, using: &generator)
            switch choice {
            case 0..<5:
                let count = Int.random(in: 1...40, using: &generator)
                let new = (0..<count).map { step * 1000 + $0 }
                reference.append(contentsOf: new)
                chunked.append(contentsOf: new)
            case 5...6 where !reference.isEmpty:
                let index = Int.random(in: 0..<reference.count, using: &generator)
                reference[index] = -step
                chunked[index] = -step
            case 7 where !reference.isEmpty:
                let lower = Int.random(in: 0..<reference.count, using: &generator)
                let upper = Int.random(in: lower...min(reference.count, lower + 100), using: &generator)
                let replacement = Array(repeating: step, count: Int.random(in: 0...40, using: &generator))
                reference.replaceSubrange(lower..<upper, with: replacement)
                chunked.replaceSubrange(lower..<upper, with: replacement)
            case 8 where !reference.isEmpty:
                let index = Int.random(in: 0..<reference.count, using: &generator)
                #expect(reference.remove(at: index) == chunked.remove(at: index))
            default:
                let index = Int.random(in: 0...reference.count, using: &generator)
                reference.insert(step, at: index)
                chunked.insert(step, at: index)
            }
            guard chunked.count == reference.count, chunked.elementsEqual(reference) else {
                Issue.record(
                    "seed \(seed), step \(step) (choice \(choice)): \(chunked.count) elements, expected \(reference.count)"
                )
                return
            }
        }
        #expect(reference.count > capacity * 3 / 2, "the edits spanned several chunks")
    }

    @Test func aCopyIsAnIndependentValue() {
        var original = ChunkedArray(0..<(capacity * 5 + 7))
        let snapshot = original
        original[capacity * 2 + 3] = -1
        original.append(99)
        original.removeFirst()
        #expect(snapshot.count == capacity * 5 + 7)
        #expect(snapshot.elementsEqual(0..<(capacity * 5 + 7)))
        #expect(original.first == 1 && original.last == 99 && original[capacity * 2 + 2] == -1)
    }

    @Test func encodesAndDecodesExactlyAsAnArray() throws {
        let values = (0..<(capacity + 10)).map { "item \($0)" }
        let encoder = JSONEncoder()
        let fromArray = try encoder.encode(values)
        let fromChunked = try encoder.encode(ChunkedArray(values))
        #expect(fromArray == fromChunked)
        let decoded = try JSONDecoder().decode(ChunkedArray<String>.self, from: fromArray)
        #expect(decoded == ChunkedArray(values))
        #expect(decoded.elements == values)
        #expect(try JSONDecoder().decode(ChunkedArray<String>.self, from: Data("[]".utf8)).isEmpty)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ChunkedArray<String>.self, from: Data(#"{"a": 1}"#.utf8))
        }
    }

    @Test func equalityAndHashingIgnoreHowTheValueWasBuilt() {
        var built = ChunkedArray<Int>()
        for value in 0..<(capacity + 5) { built.append(value) }
        built.insert(-1, at: 0)
        built.removeFirst()
        let literal: ChunkedArray = [1, 2, 3]
        #expect(built == ChunkedArray(0..<(capacity + 5)))
        #expect(built.hashValue == ChunkedArray(0..<(capacity + 5)).hashValue)
        #expect(literal.description == "[1, 2, 3]")
        #expect(literal != [1, 2])
    }
}
