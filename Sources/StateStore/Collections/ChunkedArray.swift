/// An array kept in fixed-size chunks, for the large collections of a model that ``PersistentState`` saves.
///
/// A save takes a value snapshot of the model and encodes it off the owner. While it runs, the first change to a
/// plain `Array` copies the whole array on the owner (copy-on-write: 2.8–4.3 ms for 50,000 records). A
/// `ChunkedArray` shares its chunks instead: that first change copies the outer array (one reference per
/// ``chunkCapacity`` elements) and the one chunk it touches, so the owner is blocked for microseconds whatever
/// the size.
///
/// It is a `RandomAccessCollection`, `MutableCollection` and `RangeReplaceableCollection` with `Int` indices
/// from 0, and it encodes and decodes exactly as an `Array` does (a JSON array), so swapping one for the other
/// does not change the file format. Appending and changing an element are O(1); inserting or removing before
/// the end moves the elements after it, like `Array`.
public struct ChunkedArray<Element> {
    /// The elements per chunk: every chunk but the last holds exactly this many; the last holds 1 to this many.
    public static var chunkCapacity: Int { 1024 }

    /// The chunks, in order; empty when the array is.
    private var chunks: [[Element]]
    /// The number of elements.
    public private(set) var count: Int

    /// An empty array.
    public init() {
        chunks = []
        count = 0
    }

    /// An array holding `elements` in order.
    public init<S: Sequence>(_ elements: S) where S.Element == Element {
        self.init()
        append(contentsOf: elements)
    }

    /// The elements as a plain `Array`.
    public var elements: [Element] { Array(chunks.joined()) }

    /// Adds `element` at the end: O(1), and after a snapshot it copies only the last chunk.
    public mutating func append(_ element: Element) {
        if let last = chunks.indices.last, chunks[last].count < Self.chunkCapacity {
            chunks[last].append(element)
        } else {
            var chunk: [Element] = []
            chunk.reserveCapacity(Self.chunkCapacity)
            chunk.append(element)
            chunks.append(chunk)
        }
        count += 1
    }

    /// Adds `newElements` at the end.
    public mutating func append<S: Sequence>(contentsOf newElements: S) where S.Element == Element {
        for element in newElements { append(element) }
    }

    /// Removes the elements from `newCount` on, keeping the chunk invariant.
    private mutating func truncate(to newCount: Int) {
        guard newCount < count else { return }
        let keptChunks = (newCount + Self.chunkCapacity - 1) / Self.chunkCapacity
        chunks.removeSubrange(keptChunks...)
        if let last = chunks.indices.last {
            let keep = newCount - last * Self.chunkCapacity
            chunks[last].removeSubrange(keep...)
        }
        count = newCount
    }
}

extension ChunkedArray: RandomAccessCollection, MutableCollection {
    /// Always 0.
    public var startIndex: Int { 0 }
    /// ``count``.
    public var endIndex: Int { count }

    /// The element at `position`, which must be in `0..<count`.
    public subscript(position: Int) -> Element {
        get {
            precondition(position >= 0 && position < count, "ChunkedArray index \(position) out of range 0..<\(count)")
            return chunks[position / Self.chunkCapacity][position % Self.chunkCapacity]
        }
        _modify {
            precondition(position >= 0 && position < count, "ChunkedArray index \(position) out of range 0..<\(count)")
            yield &chunks[position / Self.chunkCapacity][position % Self.chunkCapacity]
        }
    }
}

extension ChunkedArray: RangeReplaceableCollection {
    /// Replaces `subrange` with `newElements`: O(elements after `subrange.lowerBound`), O(new elements) at the end.
    public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C)
    where C.Element == Element {
        precondition(
            subrange.lowerBound >= 0 && subrange.upperBound <= count, "ChunkedArray range \(subrange) out of bounds")
        let tail = subrange.upperBound < count ? Array(self[subrange.upperBound...]) : []
        truncate(to: subrange.lowerBound)
        append(contentsOf: newElements)
        append(contentsOf: tail)
    }

    /// Reserves nothing: chunks are allocated at their full capacity as they are needed.
    public mutating func reserveCapacity(_ minimumCapacity: Int) {}
}

extension ChunkedArray: ExpressibleByArrayLiteral {
    /// An array holding the literal's elements.
    public init(arrayLiteral elements: Element...) {
        self.init(elements)
    }
}

extension ChunkedArray: Equatable where Element: Equatable {
    /// Equal when the elements are, in order (the chunking is not part of the value).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }
}

extension ChunkedArray: Hashable where Element: Hashable {
    /// Hashes the count and the elements in order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for element in self { hasher.combine(element) }
    }
}

extension ChunkedArray: Sendable where Element: Sendable {}

extension ChunkedArray: CustomStringConvertible {
    /// As an `Array` describes itself.
    public var description: String { elements.description }
}

extension ChunkedArray: Encodable where Element: Encodable {
    /// Encodes the elements as one unkeyed container, exactly like `Array`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in self { try container.encode(element) }
    }
}

extension ChunkedArray: Decodable where Element: Decodable {
    /// Decodes what `Array` decodes: an unkeyed container of elements.
    public init(from decoder: any Decoder) throws {
        self.init()
        var container = try decoder.unkeyedContainer()
        while !container.isAtEnd { append(try container.decode(Element.self)) }
    }
}
