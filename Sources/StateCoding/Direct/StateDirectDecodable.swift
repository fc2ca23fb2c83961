/// A type that reads itself straight from a state file's bytes with a ``StateDirectReader``: one pass over the
/// UTF-8, no tree of values, and the same value, the same defaults and the same unknown fields as its
/// `init(from:)` would give through `JSONDecoder`.
///
/// `@StateModel` (the StateModel product) generates the conformance for a model. StateCoding conforms the standard
/// types a model holds: `String`, `Bool`, the integer types, `Double`, `Float`, `Date` (as the load's schema
/// writes dates), `UUID`, `Optional` and `Array` of conforming types, and every ``ExtensibleEnum``.
///
/// A load (StateStore's `StateCodec`) reads a file this way when the stored version's type conforms, and reads
/// it again through `Codable` when the direct read throws, for whatever reason: the `Codable` path stays the one
/// that names errors, salvages and applies the corrupt-file policy. A conformance must therefore give exactly
/// what `init(from:)` gives, or throw.
///
/// A value type with a single-value `Codable` form conforms with a few lines:
///
/// ```swift
/// extension ProjectID: StateDirectDecodable {
///     public init(stateReader reader: inout StateDirectReader) throws {
///         let text = try reader.readString()
///         guard let id = ProjectID(text) else { throw reader.refusal("\"\(text)\" is not a project ID") }
///         self = id
///     }
/// }
/// ```
public protocol StateDirectDecodable: Decodable {
    /// Reads the next value of `reader`, as `init(from:)` would decode it, or throws.
    ///
    /// - Throws: Any error, when the value is not one `init(from:)` would give the same value for; the load
    ///   then reads the whole file through `Codable`.
    init(stateReader reader: inout StateDirectReader) throws

    /// The value each of `documents` holds, a whole JSON document of one value, or `nil` where the direct read
    /// refuses it (the caller then reads that one through `Codable`), in order, with how many were refused.
    ///
    /// A journal's replay reads hundreds of thousands of one-change documents. The default implementation reads
    /// them all with one reader and is inlinable, so that the conforming module compiles it for its own type:
    /// called per document from the store's generic code, the reads spent a fifth of their time looking up the
    /// metadata of `Optional<Self>` and `[Self]`. Conformances keep the default.
    static func readDocuments(
        _ documents: UnsafeBufferPointer<UnsafeRawBufferPointer>
    ) -> (values: [Self?], refusedCount: Int)
}

extension StateDirectDecodable {
    /// Reads each document with one reader, restarted on each (see the requirement).
    @inlinable
    public static func readDocuments(
        _ documents: UnsafeBufferPointer<UnsafeRawBufferPointer>
    ) -> (values: [Self?], refusedCount: Int) {
        guard let first = documents.first else { return ([], 0) }
        var values: [Self?] = []
        values.reserveCapacity(documents.count)
        var refusedCount = 0
        var reader = StateDirectReader(document: first)
        for index in documents.indices {
            if index > 0 { reader.restart(bytes: documents[index]) }
            if let value = try? Self(stateReader: &reader), (try? reader.finish()) != nil {
                values.append(value)
            } else {
                values.append(nil)
                refusedCount += 1
            }
        }
        return (values, refusedCount)
    }
}

/// A ``StateFieldCoder`` that also reads and writes its field straight from and to the bytes (`@StateCoder` in a
/// `@StateModel`): without it, a model with that field loads and saves through `Codable`, and the compiler says so.
public protocol StateDirectFieldCoder: StateFieldCoder {
    /// Reads the field's value, as ``StateFieldCoder/decode(from:forKey:)`` reads it, or throws.
    ///
    /// - Throws: Any error, when the value is not one `decode(from:forKey:)` would give the same value for.
    static func decode(stateReader reader: inout StateDirectReader) throws -> Value

    /// Writes the field's value, as ``StateFieldCoder/encode(_:to:forKey:)`` writes it, or throws.
    ///
    /// - Throws: Any error, when the direct write cannot give `encode(_:to:forKey:)`'s bytes.
    static func write(_ value: Value, stateWriter writer: inout StateDirectWriter) throws
}
