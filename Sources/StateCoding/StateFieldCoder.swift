/// Reads and writes one field of a model with a rule of its own, instead of the field type's `Codable`.
///
/// Generated code calls it for a property marked `@StateCoder(Coder.self)` (the StateModel product); a
/// hand-written `init(from:)` can call it too. For example, a UUID read in any letter case and written in lower
/// case:
///
/// ```swift
/// enum LowercaseUUIDCoder: StateFieldCoder {
///     static func decode<Key: CodingKey>(
///         from container: KeyedDecodingContainer<Key>, forKey key: Key
///     ) throws -> UUID {
///         let text = try container.decode(String.self, forKey: key)
///         guard let id = UUID(uuidString: text) else {
///             throw DecodingError.dataCorruptedError(
///                 forKey: key, in: container, debugDescription: "\"\(text)\" is not a UUID")
///         }
///         return id
///     }
///
///     static func encode<Key: CodingKey>(
///         _ value: UUID, to container: inout KeyedEncodingContainer<Key>, forKey key: Key
///     ) throws {
///         try container.encode(value.uuidString.lowercased(), forKey: key)
///     }
/// }
/// ```
public protocol StateFieldCoder {
    /// The field's type.
    associatedtype Value

    /// Reads the field stored under `key`.
    ///
    /// - Throws: `DecodingError` when the key is missing or its value cannot be read.
    static func decode<Key: CodingKey>(
        from container: KeyedDecodingContainer<Key>, forKey key: Key
    ) throws
        -> Value

    /// Writes `value` under `key`.
    static func encode<Key: CodingKey>(
        _ value: Value, to container: inout KeyedEncodingContainer<Key>, forKey key: Key)
        throws
}
