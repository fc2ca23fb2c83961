import FoundationEssentials

/// Encodes a value to the bytes `JSONEncoder` gives with `[.sortedKeys, .withoutEscapingSlashes]`, byte for byte,
/// straight into one buffer instead of first building a tree of the whole document.
///
/// `JSONEncoder` keeps a dictionary per object and a node per value until the document is complete, several times
/// the size of the output: the peak memory of a large state's save, and most of its time. Here each value is
/// written as it is encoded; an object's members are written in the order they come and put in key order (by
/// their UTF-8 bytes, the last of two values under one key kept, as `JSONEncoder` does on Linux) when the object
/// is complete.
///
/// Only what `JSONEncoder` does the same way is supported. A nested or super encoder, a container used after a
/// later sibling was started, a non-finite number or an error thrown by a value throws; StateStore's `StateCodec` then
/// encodes with `JSONEncoder`, so the bytes or the error are always `JSONEncoder`'s.
package struct CompactJSONEncoder {
    /// How a date is written: a custom strategy's closure, or seconds since 1970 when `nil`.
    package var encodeDate: (@Sendable (Date, any Encoder) throws -> Void)?
    /// The bytes to make room for before the first is written: about the size of the document (a state file
    /// passes what its last save or load had), so that a large document is written into one block.
    package var capacity = 0

    /// An encoder writing dates with `encodeDate` (seconds since 1970 when `nil`) into a block of `capacity` bytes.
    package init(encodeDate: (@Sendable (Date, any Encoder) throws -> Void)?, capacity: Int = 0) {
        self.encodeDate = encodeDate
        self.capacity = capacity
    }

    /// The encoded bytes of `value`.
    package func encode<T: Encodable>(_ value: T) throws -> Data {
        try encode(value, replacingLastByte: nil)
    }

    /// The encoded bytes of `value`, their last byte replaced, when `replacingLastByte` is given, by what it returns
    /// for the bytes before that byte and that byte (``CompactJSONWriter/replaceLastByte(_:)``), in the same block.
    package func encode<T: Encodable>(
        _ value: T, replacingLastByte: ((UnsafeRawBufferPointer, UInt8) throws -> [UInt8])?
    ) throws -> Data {
        let writer = CompactJSONWriter(encodeDate: encodeDate, capacity: capacity)
        let encoder = CompactValueEncoder(writer: writer, parent: nil, key: nil, container: nil)
        try writer.write(value, with: encoder)
        if let replacingLastByte {
            guard try writer.replaceLastByte(replacingLastByte) else {
                throw CompactEncodingUnsupported(feature: "replacing the last byte of an empty document")
            }
        }
        return writer.takeData()
    }
}

/// What the compact encoder does not do as `JSONEncoder` does; the caller encodes with `JSONEncoder` instead.
package struct CompactEncodingUnsupported: Error, CustomStringConvertible {
    /// What was asked.
    let feature: String

    package var description: String { "the compact JSON encoder does not support \(feature)" }
}

/// The key of an array element in a coding path, as `JSONEncoder` names it.
struct CompactIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }

    init(index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}
