import StateJSON

/// The keys of a JSON object that its Swift type does not declare, kept so that they survive load → save.
///
/// With `@StateModel` (the StateModel product) a model declares `var unknownFields = UnknownFields()` and the
/// generated code does the rest, in one pass. By hand, a model type that must not lose fields written by other
/// releases stores one of these, calls
/// ``init(from:knownKeys:)`` in its `init(from:)`, and calls ``encode(to:)-(Encoder)`` first in its `encode(to:)` so that
/// the keys it declares are written after, and win over, anything captured:
///
/// ```swift
/// struct Pane: Codable {
///     var id: UUID
///     var folder: String
///     var unknownFields = UnknownFields()
///
///     private enum CodingKeys: String, CodingKey { case id, folder }
///
///     init(from decoder: any Decoder) throws {
///         let container = try decoder.container(keyedBy: CodingKeys.self)
///         id = try container.decode(UUID.self, forKey: .id)
///         folder = try container.decode(String.self, forKey: .folder)
///         unknownFields = try UnknownFields(from: decoder, knownKeys: CodingKeys.self)
///     }
///
///     func encode(to encoder: any Encoder) throws {
///         try unknownFields.encode(to: encoder)
///         var container = encoder.container(keyedBy: CodingKeys.self)
///         try container.encode(id, forKey: .id)
///         try container.encode(folder, forKey: .folder)
///     }
/// }
/// ```
///
/// At the root of a state file the store's own keys (`version`, `minReaderVersion`) are never captured.
///
/// A field read by StateStore's direct reader (the `@StateModel` load) also keeps the exact JSON text it was
/// written as, and StateStore writes that text back byte for byte (`1.50` stays `1.50`, a 40-digit number keeps
/// every digit, `"caf\u00e9"` keeps its escape) for as long as ``values`` holds the value it was read as. Two
/// `UnknownFields` are equal when their ``values`` are: how a value was spelled is not part of what it is.
public struct UnknownFields: Sendable {
    /// The captured fields by key, each with the text it was read as when the direct reader kept it: one
    /// dictionary, so that a record pays one word for fields it nearly never has.
    var fields: [String: Field]

    /// A captured field's value, and the exact JSON text it was read from, when it was kept.
    struct Field: Sendable {
        /// The value.
        var value: JSONValue
        /// The value's JSON text, as it was in the file; nil when the value was not read by the direct reader.
        var text: String?
    }

    /// The captured fields by key.
    ///
    /// Setting it keeps the text of each field whose value is unchanged, and drops the text of any other.
    public var values: [String: JSONValue] {
        get { fields.isEmpty ? [:] : fields.mapValues(\.value) }
        set {
            var updated: [String: Field] = [:]
            updated.reserveCapacity(newValue.count)
            for (key, value) in newValue {
                if let kept = fields[key], kept.value == value {
                    updated[key] = kept
                } else {
                    updated[key] = Field(value: value)
                }
            }
            fields = updated
        }
    }

    /// No unknown fields.
    public init() {
        self.fields = [:]
    }

    /// The given fields.
    public init(_ values: [String: JSONValue]) {
        self.fields = values.mapValues { Field(value: $0) }
    }

    /// Whether nothing was captured.
    public var isEmpty: Bool { fields.isEmpty }

    /// How many fields were captured.
    public var count: Int { fields.count }

    /// The field `key`'s value. Setting a value other than the one held drops the field's text; the other
    /// fields keep theirs.
    public subscript(key: String) -> JSONValue? {
        get { fields[key]?.value }
        set {
            guard let newValue else {
                fields[key] = nil
                return
            }
            if fields[key]?.value != newValue { fields[key] = Field(value: newValue) }
        }
    }

    /// Removes the field `key` and returns its value; the other fields keep their text.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        fields.removeValue(forKey: key)?.value
    }

    /// The exact JSON text the field `key` was read as, while it still holds the value read from it; nil for a
    /// field read through `Codable`, set in code, or changed since.
    ///
    /// StateStore's writer writes this text in place of the value, so a field another release wrote comes back
    /// byte for byte.
    public func jsonText(forKey key: String) -> String? {
        fields[key]?.text
    }

    /// Keeps `value`, read from the JSON text `text`, under `key`.
    mutating func keep(_ value: JSONValue, text: String, forKey key: String) {
        fields[key] = Field(value: value, text: text)
    }

    /// Captures every key of the object being decoded that `Keys` does not declare.
    ///
    /// - Parameters:
    ///   - decoder: The decoder passed to the model's `init(from:)`.
    ///   - knownKeys: The model's coding keys; a key is known when `Keys(stringValue:)` accepts it.
    public init<Keys: CodingKey>(from decoder: any Decoder, knownKeys: Keys.Type) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        let unknown = container.allKeys.filter { Keys(stringValue: $0.stringValue) == nil }
        self.fields = try Self.capture(unknown, of: container, in: decoder).mapValues { Field(value: $0) }
    }

    /// Captures every key `container.allKeys` lists: the one-pass form, for a model that reads its declared keys
    /// from the same container (what `@StateModel` generates).
    ///
    /// Open the container keyed by a type whose `init?(stringValue:)` accepts only the keys the model does not
    /// declare (and whose own initializer makes the declared ones), so that `allKeys` lists just the unknown keys:
    ///
    /// ```swift
    /// let container = try decoder.container(keyedBy: Keys.self)   // Keys(stringValue: "id") == nil
    /// id = try container.decode(String.self, forKey: Keys("id"))
    /// unknownFields = try UnknownFields(undeclaredKeysOf: container, in: decoder)
    /// ```
    ///
    /// - Parameters:
    ///   - container: The object's container, keyed so that `allKeys` lists only the undeclared keys.
    ///   - decoder: The decoder passed to the model's `init(from:)`, which carries the load's context.
    public init<Key: CodingKey>(
        undeclaredKeysOf container: KeyedDecodingContainer<Key>, in decoder: any Decoder
    ) throws {
        let keys = container.allKeys
        // Nearly every record has no unknown key: return before the generic capture and its set-up.
        guard !keys.isEmpty else {
            self.fields = [:]
            return
        }
        self.fields = try Self.capture(keys, of: container, in: decoder).mapValues { Field(value: $0) }
    }

    /// The values of `keys` in `container`, less the store's own root keys, recorded in the load's context.
    private static func capture<Key: CodingKey>(
        _ keys: [Key], of container: KeyedDecodingContainer<Key>, in decoder: any Decoder
    ) throws -> [String: JSONValue] {
        guard !keys.isEmpty else { return [:] }
        // Only records with unknown keys pay for the context lookup and the coding path.
        let context = LoadContext.of(decoder)
        let codingPath = container.codingPath
        let reserved: Set<String> = codingPath.isEmpty ? (context?.reservedRootKeys ?? []) : []
        var values: [String: JSONValue] = [:]
        // In key order: `allKeys` comes in the order of a dictionary, which differs from run to run, and of two
        // unknown values that cannot be read, the error would name either.
        let ordered = keys.count > 1 ? keys.sorted { $0.stringValue < $1.stringValue } : keys
        for key in ordered where !reserved.contains(key.stringValue) {
            values[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
        }
        if let context, !values.isEmpty {
            context.recordUnknownKeys(values.keys, at: codingPath)
        }
        return values
    }

    /// Writes the captured fields into `container`, the one the model then writes its declared keys to.
    ///
    /// Call it before encoding the declared keys, so that a declared key written later replaces a captured one.
    /// Prefer ``encode(to:skipping:)``: a declared optional that is `nil` writes nothing, and the captured value
    /// would then stand in its place.
    public func encode(to container: inout KeyedEncodingContainer<AnyCodingKey>) throws {
        for (key, field) in fields {
            try container.encode(Self.encodable(field), forKey: AnyCodingKey(key))
        }
    }

    /// Writes the captured fields into `container`, except those whose key the model declares.
    ///
    /// A record can hold a captured field under a key its type declares when a migration step carried the old
    /// record's unknown fields into a version that declares that key. The declared property is what the state
    /// means, so the captured value is never written, even when the property writes nothing (a `nil` optional):
    /// written, it would be read back as the property's value — or, not being one, make the saved file fail to
    /// load as it is (a version 1 favorite with `"createdAt": ""`, say).
    ///
    /// - Parameters:
    ///   - container: The record's keyed container.
    ///   - declared: The keys the model writes itself (`@StateModel` passes them).
    public func encode(to container: inout KeyedEncodingContainer<AnyCodingKey>, skipping declared: [String]) throws {
        for (key, field) in fields where !declared.contains(key) {
            try container.encode(Self.encodable(field), forKey: AnyCodingKey(key))
        }
    }

    /// Writes the captured fields into the object being encoded.
    ///
    /// Call it before encoding the declared keys, so that a declared key written later replaces a captured one.
    public func encode(to encoder: any Encoder) throws {
        guard !values.isEmpty else { return }
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        for (key, field) in fields {
            try container.encode(Self.encodable(field), forKey: AnyCodingKey(key))
        }
    }

    /// What to encode for `field`: its value, with its kept text, which StateStore's encoder writes as it is.
    private static func encodable(_ field: Field) -> KeptJSONText {
        KeptJSONText(text: field.text, value: field.value)
    }
}

extension UnknownFields: Hashable {
    /// Whether both hold the same values, however they were written.
    public static func == (lhs: UnknownFields, rhs: UnknownFields) -> Bool {
        guard lhs.fields.count == rhs.fields.count else { return false }
        return lhs.fields.allSatisfy { rhs.fields[$0.key]?.value == $0.value.value }
    }

    /// Hashes the values.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(values)
    }
}
