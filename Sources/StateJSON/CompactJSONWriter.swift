import FoundationEssentials
import Glibc

/// The buffer a ``CompactJSONEncoder`` writes into, and the objects and arrays open in it, innermost last.
///
/// Its state is reached only from the one encoding that owns it, on one thread, so the dynamic exclusivity
/// checks of its properties (a sixth of an encode's instructions) are switched off.
///
/// An object's members are written as they come: `{`, then `"key":value` separated by commas. When the object is
/// complete and its keys were not already in order (or one repeats), its bytes are written again in key order.
/// A container may only be written to while it is the innermost open one; anything else records a failure that
/// the next write throws.
package final class CompactJSONWriter {
    /// One member of an open object: its key, and where its `"key":value` text starts and ends in ``bytes``.
    private struct Member {
        var key: String
        var start: Int
        var end: Int
    }

    /// The document so far.
    let bytes: CompactByteBuffer
    /// Where an object is copied while it is written again in key order.
    @exclusivity(unchecked) private var scratch: [UInt8] = []
    /// The order of an object's members, reused.
    @exclusivity(unchecked) private var order: [Int] = []
    /// The members of the open objects, innermost last.
    @exclusivity(unchecked) private var members: [Member] = []
    /// The open containers, innermost last.
    @exclusivity(unchecked) private var open: [ObjectIdentifier] = []
    /// Child encoders that nobody kept, for the next value.
    @exclusivity(unchecked) private var spareEncoders: [CompactValueEncoder] = []
    /// The first thing asked that this encoder does not support.
    @exclusivity(unchecked) private var failure: CompactEncodingUnsupported?
    /// How a date is written (seconds since 1970 when `nil`).
    let encodeDate: (@Sendable (Date, any Encoder) throws -> Void)?

    /// A writer with room for `capacity` bytes before its buffer grows.
    package init(encodeDate: (@Sendable (Date, any Encoder) throws -> Void)?, capacity: Int) {
        self.encodeDate = encodeDate
        self.bytes = CompactByteBuffer(capacity: capacity)
    }

    /// The document, once the top-level value is written.
    package func takeData() -> Data {
        scratch = []
        return bytes.takeData()
    }

    /// The bytes written and not yet drained.
    package var pendingByteCount: Int { bytes.count }

    /// Hands the bytes written so far to `body` and forgets them, for a writer that passes the document on in
    /// pieces; only between values, with nothing open in this writer (an object is written again in key order
    /// from its start when it closes).
    package func drain<Failure: Error>(_ body: (UnsafeRawBufferPointer) throws(Failure) -> Void) throws(Failure) {
        precondition(open.isEmpty, "cannot hand on the bytes of an open container")
        try bytes.drain(body)
    }

    /// Calls `body` with the bytes written and not yet drained but the last one, and that last one, and writes the
    /// bytes it returns in place of the last one (a store's last member before the root's `}`); only with nothing
    /// open in this writer. Returns `false`, calling nothing, when there is no byte to replace.
    package func replaceLastByte(_ body: (UnsafeRawBufferPointer, UInt8) throws -> [UInt8]) rethrows -> Bool {
        precondition(open.isEmpty, "cannot replace a byte of an open container")
        guard bytes.count > 0 else { return false }
        let last = bytes.withBytes(from: bytes.count - 1) { $0[0] }
        let replacement = try bytes.withBytes(from: 0) { written in
            try body(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(written).dropLast()), last)
        }
        bytes.removeLast(1)
        replacement.withUnsafeBufferPointer { bytes.append($0) }
        return true
    }

    // MARK: Failures

    /// Records that `feature` was asked; the next write throws.
    func fail(_ feature: String) {
        if failure == nil { failure = CompactEncodingUnsupported(feature: feature) }
    }

    /// Throws the recorded failure, if any.
    func check() throws {
        if let failure { throw failure }
    }

    /// Throws unless `container` is the innermost open container (recording `feature` as what was asked) and
    /// nothing unsupported was asked before.
    private func requireInnermost(_ container: ObjectIdentifier, or feature: String) throws {
        if !isInnermost(container) { fail(feature) }
        try check()
    }

    /// Whether `container` (`nil`: the top level) is the innermost open container.
    func isInnermost(_ container: ObjectIdentifier?) -> Bool {
        open.last == container
    }

    // MARK: Values

    /// Writes `value` as a value of its own through the `Encoder` path, for a writer that writes the rest itself
    /// (StateCoding's `StateDirectWriter`, for the values of unknown fields): nothing else may be open in it.
    package func writeValue<T: Encodable>(_ value: T) throws {
        try write(value, with: CompactValueEncoder(writer: self, parent: nil, key: nil, container: nil))
    }

    /// Appends `bytes`, which need no escaping.
    package func append(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes.append(bytes)
    }

    /// Writes `value` with `encoder` (fresh or reset), which writes where `value` belongs, then completes it.
    func write<T: Encodable>(_ value: T, with encoder: CompactValueEncoder) throws {
        if T.self == Date.self {
            let date = value as! Date
            if let encodeDate {
                try encodeDate(date, encoder)
            } else {
                try encoder.encode(date.timeIntervalSince1970)
            }
        } else if T.self == Decimal.self {
            try encoder.beginValue()
            append((value as! Decimal).description)
        } else if T.self == KeptJSONText.self, let text = (value as! KeptJSONText).text {
            try encoder.beginValue()
            append(text)
        } else if T.self == URL.self {
            try encoder.encode((value as! URL).absoluteString)
        } else if T.self == Data.self {
            try encoder.encode((value as! Data).base64EncodedString())
        } else {
            try value.encode(to: encoder)
        }
        try encoder.finish()
        try check()
    }

    /// Writes `value` as the next value of `container`, owned by `parent`, under `key`.
    func writeChild<T: Encodable>(
        _ value: T, parent: CompactValueEncoder, key: any CodingKey, container: ObjectIdentifier
    ) throws {
        if T.self == String.self {
            writeString(unsafeBitCast(value, to: String.self))
            return
        }
        var child: CompactValueEncoder
        if let spare = spareEncoders.popLast() {
            spare.reset(parent: parent, key: key, container: container)
            child = spare
        } else {
            child = CompactValueEncoder(writer: self, parent: parent, key: key, container: container)
        }
        try write(value, with: child)
        if isKnownUniquelyReferenced(&child) {
            child.reset(parent: nil, key: nil, container: nil)
            spareEncoders.append(child)
        }
    }

    /// Appends `text`'s UTF-8 bytes, which need no escaping (numbers, literals).
    package func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append($0) }
    }

    /// Appends one byte.
    package func append(byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends `text` as a JSON string, escaped as `JSONEncoder` escapes it with `.withoutEscapingSlashes`.
    package func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var mark = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(UnsafeBufferPointer(rebasing: utf8[mark..<index]))
                mark = index + 1
                switch byte {
                case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\\"), UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"), UInt8(ascii: "\\"))
                case 0x08: bytes.append(UInt8(ascii: "\\"), UInt8(ascii: "b"))
                case 0x0c: bytes.append(UInt8(ascii: "\\"), UInt8(ascii: "f"))
                case 0x0a: bytes.append(UInt8(ascii: "\\"), UInt8(ascii: "n"))
                case 0x0d: bytes.append(UInt8(ascii: "\\"), UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "\\"), UInt8(ascii: "t"))
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    bytes.append(UInt8(ascii: "\\"), UInt8(ascii: "u"))
                    bytes.append(UInt8(ascii: "0"), UInt8(ascii: "0"))
                    bytes.append(hex[Int(byte >> 4)], hex[Int(byte & 0x0f)])
                }
            }
            bytes.append(UnsafeBufferPointer(rebasing: utf8[mark...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends a floating-point number as `JSONEncoder` writes it (its description without a trailing `.0`);
    /// a non-finite one is not supported (`JSONEncoder` throws its own error for it).
    package func writeNumber<F: BinaryFloatingPoint & CustomStringConvertible>(_ value: F) throws {
        guard value.isFinite else {
            fail("a non-finite number")
            try check()
            return
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        append(text)
    }

    // MARK: Objects

    /// Opens an object as the next value of `container` (`nil`: the top level).
    func openObject(in container: ObjectIdentifier?) -> CompactObject {
        let object = CompactObject(start: bytes.count, firstMember: members.count)
        if !isInnermost(container) { fail("a container opened while another value was being written") }
        open.append(ObjectIdentifier(object))
        bytes.append(UInt8(ascii: "{"))
        return object
    }

    /// Starts the member `key` of `object`: its key is written, its value comes next.
    func beginMember(_ key: String, of object: CompactObject) throws {
        try requireInnermost(
            ObjectIdentifier(object), or: "a keyed container written to after a later value was started")
        let start = bytes.count
        if members.count > object.firstMember { bytes.append(UInt8(ascii: ",")) }
        writeString(key)
        bytes.append(UInt8(ascii: ":"))
        members.append(Member(key: key, start: start, end: start))
    }

    /// Ends the member begun last.
    func endMember() {
        members[members.count - 1].end = bytes.count
    }

    /// Closes `object`, writing its members again in key order (the last of a repeated key kept) unless they
    /// already were.
    func closeObject(_ object: CompactObject) throws {
        try requireInnermost(ObjectIdentifier(object), or: "an object completed while another value was being written")
        open.removeLast()
        let range = object.firstMember..<members.count
        defer { members.removeSubrange(range) }
        // Members that came in key order, each key once, are already where they belong.
        var inOrder = true
        var member = range.lowerBound + 1
        while inOrder, member < range.upperBound {
            inOrder = Self.compareUTF8(members[member - 1].key, members[member].key) < 0
            member += 1
        }
        if inOrder {
            bytes.append(UInt8(ascii: "}"))
            return
        }
        order.removeAll(keepingCapacity: true)
        order.append(contentsOf: range)
        order.sort { left, right in
            let comparison = Self.compareUTF8(members[left].key, members[right].key)
            return comparison == 0 ? left < right : comparison < 0
        }
        var kept = 0
        for position in order.indices {
            let isLastOfItsKey =
                position + 1 == order.count
                || Self.compareUTF8(members[order[position]].key, members[order[position + 1]].key) != 0
            if isLastOfItsKey {
                order[kept] = order[position]
                kept += 1
            }
        }
        order.removeLast(order.count - kept)
        if order.elementsEqual(range) {
            bytes.append(UInt8(ascii: "}"))
            return
        }
        scratch.removeAll(keepingCapacity: true)
        bytes.withBytes(from: object.start) { scratch.append(contentsOf: $0) }
        bytes.removeLast(bytes.count - object.start)
        bytes.append(UInt8(ascii: "{"))
        for (position, index) in order.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            var start = members[index].start - object.start
            if scratch[start] == UInt8(ascii: ",") { start += 1 }
            scratch.withUnsafeBufferPointer { member in
                bytes.append(UnsafeBufferPointer(rebasing: member[start..<(members[index].end - object.start)]))
            }
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// Orders two keys by their UTF-8 bytes (negative, zero or positive), as `JSONEncoder` sorts keys on Linux.
    package static func compareUTF8(_ left: String, _ right: String) -> Int {
        var (left, right) = (left, right)
        return left.withUTF8 { leftBytes in
            right.withUTF8 { rightBytes in
                let shared = Swift.min(leftBytes.count, rightBytes.count)
                if shared > 0, let leftStart = leftBytes.baseAddress, let rightStart = rightBytes.baseAddress {
                    let order = memcmp(leftStart, rightStart, shared)
                    if order != 0 { return Int(order) }
                }
                return leftBytes.count - rightBytes.count
            }
        }
    }

    // MARK: Arrays

    /// Opens an array as the next value of `container` (`nil`: the top level).
    func openArray(in container: ObjectIdentifier?) -> CompactArray {
        let array = CompactArray()
        if !isInnermost(container) { fail("a container opened while another value was being written") }
        open.append(ObjectIdentifier(array))
        bytes.append(UInt8(ascii: "["))
        return array
    }

    /// Starts the next element of `array`.
    func beginElement(of array: CompactArray) throws {
        try requireInnermost(
            ObjectIdentifier(array), or: "an unkeyed container written to after a later value was started")
        if array.count > 0 { bytes.append(UInt8(ascii: ",")) }
        array.count += 1
    }

    /// Closes `array`.
    func closeArray(_ array: CompactArray) throws {
        try requireInnermost(ObjectIdentifier(array), or: "an array completed while another value was being written")
        open.removeLast()
        bytes.append(UInt8(ascii: "]"))
    }
}

/// An object being written: where it starts in the buffer, and its first member in the writer's list.
final class CompactObject {
    let start: Int
    let firstMember: Int

    init(start: Int, firstMember: Int) {
        self.start = start
        self.firstMember = firstMember
    }
}

/// An array being written, and how many elements it has so far.
final class CompactArray {
    @exclusivity(unchecked) var count = 0
}
