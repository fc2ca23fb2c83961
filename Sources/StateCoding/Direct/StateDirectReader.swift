import StateJSON

/// Reads a JSON document straight into ``StateDirectDecodable`` types: one pass over the UTF-8 bytes, keys
/// compared as bytes with the declared keys, values converted in place, and, as a `JSONDecoder` load with a
/// `LoadContext` would, the defaults given and the unknown keys kept counted by path (`projects[].panes[].tabs`).
///
/// It accepts and refuses what `JSONDecoder` does for the same reads (StateJSON's pull reader), and refuses more
/// where matching `JSONDecoder` exactly would cost the common case: a duplicate key anywhere, a number in an
/// unknown field that is not a plain integer is read through `JSONDecoder` itself. A refusal is never the last
/// word: the load reads the file again through `Codable`.
///
/// Generated code (`@StateModel`) and the conformances of value types call it; a load creates it over the bytes
/// it holds, for the duration of one read.
public struct StateDirectReader {
    /// One step of the path from the document's root to the value being read.
    @usableFromInline
    enum PathItem {
        /// A member of an object.
        case key(StaticString)
        /// An element of an array (positions are folded, so counts aggregate per field).
        case element
    }

    @usableFromInline var json: JSONPullReader
    /// From the root to the value being read.
    @usableFromInline var path: [PathItem] = []
    /// How dates are read.
    package let dateCoding: StateDirectDateCoding
    /// The root keys of the store's envelope, captured instead of kept as unknown; nil outside a store load.
    let envelopeKeys: StateDirectEnvelope.Keys?
    /// Whether ``envelopeKeys`` is set: a declared key at the root is then checked against them.
    @usableFromInline let capturesEnvelope: Bool
    /// The envelope's values, as read at the root.
    package internal(set) var envelope = StateDirectEnvelope()
    /// The fields that were missing (or `null`) and took their default, by path, with how many records.
    package internal(set) var fieldsDefaulted: [String: Int] = [:]
    /// The unknown keys kept, by path, with how many records held each.
    package internal(set) var unknownKeysKept: [String: Int] = [:]
    /// The undeclared keys skipped by a type that keeps none (``skipUnknown(_:skipped:)``), by path, with how many
    /// records held each.
    package internal(set) var unknownKeysDropped: [String: Int] = [:]
    /// The offset from which the next array element gives back the bytes passed (``releaseBytes(every:_:)``).
    @usableFromInline var nextRelease = Int.max
    /// How far the read goes between two releases.
    var releaseInterval = Int.max
    /// Gives back the bytes of a range the read has passed.
    var releaseRange: (@Sendable (Range<Int>) -> Void)?
    /// The bytes before this offset were given back (or are not this reader's to give back).
    var releasedFrom = 0
    /// What a read that ends at an element's start keeps of the bytes behind it: a value being read started there.
    static let releaseMargin = 256 << 10
    /// The remaining bytes from which an array at the root (or one level below) is read in two parts, the second
    /// on another thread (``readElements(_:)``); nil: never.
    package var splitsArraysFrom: Int?
    /// How many more arrays may be read in two parts.
    var splitsLeft = 4
    /// How many arrays were read in two parts (the second part's read used).
    package internal(set) var arraysReadInParts = 0
    /// The strings read lately (``readString()``); nil until a string long enough to share is read.
    @usableFromInline var recentStrings: SharedStrings?

    /// A reader of `bytes`, a whole JSON document, that reads dates as `dateCoding` says and, at the root,
    /// captures the envelope's `envelopeKeys` (a store load) instead of keeping them as unknown fields.
    package init(
        bytes: UnsafeRawBufferPointer, dateCoding: StateDirectDateCoding = .deferredToDate,
        envelopeKeys: StateDirectEnvelope.Keys? = nil
    ) {
        json = JSONPullReader(bytes: bytes)
        self.dateCoding = dateCoding
        self.envelopeKeys = envelopeKeys
        capturesEnvelope = envelopeKeys != nil
        path.reserveCapacity(16)
    }

    /// A reader of `bytes`, a whole document of one value outside a store load (a journal record): dates as
    /// `Codable` reads them, no envelope.
    @usableFromInline
    package init(document bytes: UnsafeRawBufferPointer) {
        self.init(bytes: bytes)
    }

    /// Points the reader at `bytes`, another whole document, as a new reader with the same date coding and no
    /// envelope would, but keeping the storage it allocated: a replay reads hundreds of thousands of one-change
    /// documents, and a new reader's path storage cost an allocation for each.
    @usableFromInline
    package mutating func restart(bytes: UnsafeRawBufferPointer) {
        json = JSONPullReader(bytes: bytes)
        // Empty after a document read whole; removeAll is a call even then.
        if !path.isEmpty { path.removeAll(keepingCapacity: true) }
        if !fieldsDefaulted.isEmpty { fieldsDefaulted = [:] }
        if !unknownKeysKept.isEmpty { unknownKeysKept = [:] }
        if !unknownKeysDropped.isEmpty { unknownKeysDropped = [:] }
        arraysReadInParts = 0
        splitsLeft = 4
    }

    /// Calls `release` with the range of bytes the read has passed (less a margin), at the start of an array
    /// element, each time the read has gone `interval` bytes further: a load that maps the file gives back those
    /// pages. The read only looks back within the value it is reading; a page given back and touched again reads
    /// the file again, so a release is never wrong, only wasted.
    package mutating func releaseBytes(every interval: Int, _ release: @escaping @Sendable (Range<Int>) -> Void) {
        releaseInterval = max(interval, 1)
        releaseRange = release
        releasedFrom = json.byteOffset
        nextRelease = json.byteOffset + releaseInterval
    }

    /// Gives back the bytes passed since the last release, less ``releaseMargin``.
    @usableFromInline
    mutating func releasePassedBytes() {
        let end = json.byteOffset - Self.releaseMargin
        if end > releasedFrom {
            releaseRange?(releasedFrom..<end)
            releasedFrom = end
        }
        nextRelease = json.byteOffset + releaseInterval
    }

    /// Checks that only whitespace follows the value read.
    @inlinable
    package mutating func finish() throws {
        try json.finish()
    }

    /// The offset of the next byte the reader looks at.
    public var byteOffset: Int { json.byteOffset }

    /// An error saying `reason` at the reader's place, for a conformance that refuses a value it read.
    @usableFromInline
    func refusalAt(_ reason: String) -> StateDirectReadError {
        StateDirectReadError(reason, at: json.byteOffset)
    }

    /// An error saying `reason` at the reader's place, for a conformance that refuses a value it read.
    public func refusal(_ reason: String) -> StateDirectReadError {
        StateDirectReadError(reason, at: json.byteOffset)
    }

    /// The path of the object being read with `key` after it, as `LoadContext` spells it: `projects[].panes[].tabs`.
    func fieldPath(_ key: String) -> String {
        var text = ""
        for item in path {
            switch item {
            case .element: text += "[]"
            case .key(let name): text += text.isEmpty ? name.description : "." + name.description
            }
        }
        return text.isEmpty ? key : text + "." + key
    }
}

/// How a ``StateDirectReader`` reads a `Date`: the strategy the `JSONDecoder` of the same load uses.
package enum StateDirectDateCoding: Sendable {
    /// StateStore's ISO 8601 (`ISO8601Timestamp`): with or without a fraction, `Z` or an offset.
    case iso8601
    /// A number of seconds since 1970.
    case secondsSince1970
    /// `JSONDecoder`'s default: a number of seconds since 2001.
    case deferredToDate
}
