import FoundationEssentials
import StateJSON

/// Writes ``StateDirectEncodable`` values straight into a state file's bytes: the bytes StateStore's encoder gives
/// for their `encode(to:)`, with every object's members in the order of their keys' UTF-8 bytes.
///
/// Generated code writes an object's declared members in key order; the writer merges in, where their keys
/// belong, the unknown fields the object keeps and, at the root, the store's own keys (version, revision, …).
public struct StateDirectWriter {
    /// One object being written: whether a member has been written, and the members still to merge in, in key
    /// order, from `next` on.
    struct Frame {
        var first = true
        var pending: [Member] = []
        var next = 0
    }

    /// A member to merge in: an unknown field (with the exact text it was read as, when it was kept) or a root
    /// key of the store.
    struct Member {
        var key: String
        var value: JSONValue
        var text: String? = nil
    }

    let writer: CompactJSONWriter
    /// How dates are written.
    package let dateCoding: StateDirectDateCoding
    /// The open objects, innermost last.
    var frames: [Frame] = []
    /// The store's root keys, merged into the first object written (the document's root).
    var rootMembers: [(key: String, value: JSONValue)]?
    /// Where the bytes go in pieces, for a writer that does not keep the whole document.
    let sink: ((UnsafeRawBufferPointer) throws -> Void)?
    /// How many bytes pile up, between two elements of an array, before they are handed to ``sink``.
    let pieceSize: Int

    /// A writer that writes dates as `dateCoding` says, with room for `capacity` bytes, merging `rootMembers` into
    /// the document's root object.
    package init(dateCoding: StateDirectDateCoding, capacity: Int, rootMembers: [(key: String, value: JSONValue)]) {
        writer = CompactJSONWriter(encodeDate: nil, capacity: capacity)
        self.dateCoding = dateCoding
        self.rootMembers = rootMembers
        sink = nil
        pieceSize = .max
        frames.reserveCapacity(16)
    }

    /// A writer that hands what it writes to `sink` in pieces of about `pieceSize` bytes (cut between two elements
    /// of an array, so an element larger than that is one larger piece) instead of keeping the document: a large
    /// state is saved without a second copy of itself in memory. ``finish()`` hands on the last piece.
    package init(
        dateCoding: StateDirectDateCoding, pieceSize: Int, rootMembers: [(key: String, value: JSONValue)],
        sink: @escaping (UnsafeRawBufferPointer) throws -> Void
    ) {
        writer = CompactJSONWriter(encodeDate: nil, capacity: pieceSize + pieceSize / 8)
        self.dateCoding = dateCoding
        self.rootMembers = rootMembers
        self.sink = sink
        self.pieceSize = pieceSize
        frames.reserveCapacity(16)
    }

    /// Hands what is left to the sink of a writer made with one.
    package func finish() throws {
        if let sink { try writer.drain(sink) }
    }

    /// Replaces the document's last byte (the root object's `}`, once the model is written) with the bytes
    /// `closing` returns, given the bytes before it that this writer has not handed to its sink yet (all of them
    /// without a sink) and that byte: how a store adds a last member to the root.
    /// - Throws: What `closing` throws; a refusal when no byte of the document is left to replace.
    package func replaceLastByte(_ closing: (UnsafeRawBufferPointer, UInt8) throws -> [UInt8]) throws {
        guard try writer.replaceLastByte(closing) else { throw refusal("no byte of the document is left to replace") }
    }

    /// After an element of an array: hands the bytes on to the sink once a piece's worth has piled up.
    @usableFromInline
    func elementWritten() throws {
        if let sink, writer.pendingByteCount >= pieceSize { try writer.drain(sink) }
    }

    /// Whether the store's root keys were written (the value written was an object).
    package var wroteRootMembers: Bool { rootMembers == nil }

    /// The document written.
    package func takeData() -> Data {
        writer.takeData()
    }

    /// An error saying `reason`, for a conformance that cannot write a value as its `encode(to:)` would.
    public func refusal(_ reason: String) -> StateDirectWriteError {
        StateDirectWriteError(reason)
    }

    // MARK: Objects

    /// Opens an object (`{`) that keeps `unknownFields` (written in key order among the declared members, except
    /// those under a key in `declared`, as the generated `encode(to:)` skips them).
    public mutating func beginObject(
        keeping unknownFields: UnknownFields = UnknownFields(), declared: @autoclosure () -> [String] = []
    ) {
        writer.append(byte: UInt8(ascii: "{"))
        var frame = Frame()
        if !unknownFields.isEmpty {
            let declared = declared()
            frame.pending = unknownFields.fields.filter { !declared.contains($0.key) }.map {
                Member(key: $0.key, value: $0.value.value, text: $0.value.text)
            }
        }
        if let root = rootMembers {
            // The store's keys are written after the model's, and the last of two values under one key is kept.
            rootMembers = nil
            frame.pending.removeAll { member in root.contains { $0.key == member.key } }
            frame.pending += root.map { Member(key: $0.key, value: $0.value) }
        }
        if frame.pending.count > 1 {
            frame.pending.sort { CompactJSONWriter.compareUTF8($0.key, $1.key) < 0 }
        }
        frames.append(frame)
    }

    /// Starts the declared member `key`, after the members to merge in whose keys come before it; throws when one
    /// of them has the same key (a root key of the store the model also declares).
    public mutating func member(_ key: StaticString) throws {
        let index = frames.count - 1
        if frames[index].next < frames[index].pending.count {
            let name = key.description
            while frames[index].next < frames[index].pending.count {
                let pending = frames[index].pending[frames[index].next]
                let order = CompactJSONWriter.compareUTF8(pending.key, name)
                if order > 0 { break }
                if order == 0 { throw refusal("the model declares the store's root key \"\(name)\"") }
                frames[index].next += 1
                try writeMember(pending, in: index)
            }
        }
        if frames[index].first {
            frames[index].first = false
        } else {
            writer.append(byte: UInt8(ascii: ","))
        }
        writeKey(key)
    }

    /// Closes the object, after the members to merge in that are left.
    public mutating func endObject() throws {
        let index = frames.count - 1
        while frames[index].next < frames[index].pending.count {
            let pending = frames[index].pending[frames[index].next]
            frames[index].next += 1
            try writeMember(pending, in: index)
        }
        frames.removeLast()
        writer.append(byte: UInt8(ascii: "}"))
    }

    /// Writes one merged member: a kept text as it is, any other value as StateStore's encoder writes it.
    private mutating func writeMember(_ member: Member, in index: Int) throws {
        if frames[index].first {
            frames[index].first = false
        } else {
            writer.append(byte: UInt8(ascii: ","))
        }
        writer.writeString(member.key)
        writer.append(byte: UInt8(ascii: ":"))
        if let text = member.text {
            writer.append(text)
        } else {
            try writer.writeValue(member.value)
        }
    }

    /// Writes `"key":`: a plain key's bytes as they are, any other escaped.
    private func writeKey(_ key: StaticString) {
        if key.hasPointerRepresentation {
            let bytes = UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
            if bytes.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
                writer.append(byte: UInt8(ascii: "\""))
                writer.append(bytes: bytes)
                writer.append(byte: UInt8(ascii: "\""))
                writer.append(byte: UInt8(ascii: ":"))
                return
            }
        }
        writer.writeString(key.description)
        writer.append(byte: UInt8(ascii: ":"))
    }

    // MARK: Values

    /// Writes `value` as its `encode(to:)` would.
    @inlinable
    public mutating func write<Value: StateDirectEncodable>(_ value: Value) throws {
        try value.write(stateWriter: &self)
    }

    /// Writes `value` with `coder`, as `coder.encode(_:to:forKey:)` would.
    @inlinable
    public mutating func write<Coder: StateDirectFieldCoder>(_ value: Coder.Value, with coder: Coder.Type) throws {
        try Coder.write(value, stateWriter: &self)
    }

    /// A type without a direct writer: the model holding it saves through `Encodable` (the compiler warns).
    @available(
        *, deprecated,
        message:
            "this type has no direct writer (StateDirectEncodable): models holding it save through Encodable, slower"
    )
    public mutating func write<Value: Encodable>(_ value: Value) throws {
        throw refusal("\(Value.self) has no direct writer")
    }

    /// A coder without a direct writer: the model holding its field saves through `Encodable` (the compiler warns).
    @available(
        *, deprecated,
        message:
            "this coder has no direct writer (StateDirectFieldCoder): models holding it save through Encodable, slower"
    )
    public mutating func write<Coder: StateFieldCoder>(_ value: Coder.Value, with coder: Coder.Type) throws {
        throw refusal("\(Coder.self) has no direct writer")
    }

    /// Writes a string, escaped as `JSONEncoder` escapes it (slashes unescaped).
    public mutating func writeString(_ text: String) {
        writer.writeString(text)
    }

    /// Writes `true` or `false`.
    public mutating func writeBool(_ value: Bool) {
        writer.append(value ? "true" : "false")
    }

    /// Writes `null`.
    public mutating func writeNull() {
        writer.append("null")
    }

    /// Writes an integer in decimal.
    public mutating func writeInteger<Integer: FixedWidthInteger>(_ value: Integer) {
        var digits: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var magnitude = value.magnitude
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude != 0
            if value < 0 {
                start -= 1
                buffer[start] = UInt8(ascii: "-")
            }
            let text = UnsafeRawBufferPointer(rebasing: buffer[start...])
            writer.append(bytes: text.bindMemory(to: UInt8.self))
        }
    }

    /// Writes a floating-point number as `JSONEncoder` writes it; throws for a non-finite one.
    public mutating func writeNumber<F: BinaryFloatingPoint & CustomStringConvertible>(_ value: F) throws {
        guard value.isFinite else { throw refusal("a non-finite number") }
        try writer.writeNumber(value)
    }

    /// Writes a date as the save's date strategy writes it.
    public mutating func writeDate(_ date: Date) throws {
        switch dateCoding {
        case .iso8601: writer.writeString(try ISO8601Timestamp.string(from: date))
        case .secondsSince1970: try writeNumber(date.timeIntervalSince1970)
        case .deferredToDate: try writeNumber(date.timeIntervalSinceReferenceDate)
        }
    }

    /// Writes an array of `elements`, each as its `encode(to:)` would.
    @inlinable
    public mutating func writeArray<Element: StateDirectEncodable>(_ elements: [Element]) throws {
        beginArray()
        var first = true
        for element in elements {
            if !first { separateElement() }
            first = false
            try element.write(stateWriter: &self)
            try elementWritten()
        }
        endArray()
    }

    /// Writes `[`.
    @usableFromInline
    mutating func beginArray() {
        writer.append(byte: UInt8(ascii: "["))
    }

    /// Writes the `,` between two elements.
    @usableFromInline
    mutating func separateElement() {
        writer.append(byte: UInt8(ascii: ","))
    }

    /// Writes `]`.
    @usableFromInline
    mutating func endArray() {
        writer.append(byte: UInt8(ascii: "]"))
    }

    /// Writes any value through the `Encodable` path of StateStore's encoder (a `JSONValue` of an unknown field).
    mutating func writeEncodable<Value: Encodable>(_ value: Value) throws {
        try writer.writeValue(value)
    }
}

/// Why a ``StateDirectWriter`` could not write a value as `encode(to:)` would: the save then encodes through
/// `Encodable`.
public struct StateDirectWriteError: Error, Sendable, CustomStringConvertible {
    /// What could not be written, as a phrase.
    public let reason: String

    /// An error saying `reason`.
    public init(_ reason: String) {
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }
}
