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
    /// The captured fields by key.
    public var values: [String: JSONValue]

    /// The exact JSON text of fields as the direct reader read them, with the value it read, by key.
    var texts: [String: KeptText] = [:]

    /// The text a field was written as, with the value it was read as: the text is written back only while the
    /// field still holds that value.
    struct KeptText: Sendable {
        /// The value's JSON text, as it was in the file.
        var text: String
        /// The value read from it.
        var value: JSONValue
    }

    /// No unknown fields.
    public init() {
        self.values = [:]
    }

    /// The given fields.
    public init(_ values: [String: JSONValue]) {
        self.values = values
    }

    /// Whether nothing was captured.
    public var isEmpty: Bool { values.isEmpty }

    /// The exact JSON text the field `key` was read as, while it still holds the value read from it; nil for a
    /// field read through `Codable`, set in code, or changed since.
    ///
    /// StateStore's writer writes this text in place of the value, so a field another release wrote comes back
    /// byte for byte.
    public func jsonText(forKey key: String) -> String? {
        guard let kept = texts[key], let value = values[key], value == kept.value else { return nil }
        return kept.text
    }

    /// Keeps `value`, read from the JSON text `text`, under `key`.
    mutating func keep(_ value: JSONValue, text: String, forKey key: String) {
        values[key] = value
        texts[key] = KeptText(text: text, value: value)
    }

    /// Captures every key of the object being decoded that `Keys` does not declare.
    ///
    /// - Parameters:
    ///   - decoder: The decoder passed to the model's `init(from:)`.
    ///   - knownKeys: The model's coding keys; a key is known when `Keys(stringValue:)` accepts it.
    public init<Keys: CodingKey>(from decoder: any Decoder, knownKeys: Keys.Type) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        let unknown = container.allKeys.filter { Keys(stringValue: $0.stringValue) == nil }
        self.values = try Self.capture(unknown, of: container, in: decoder)
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
            self.values = [:]
            return
        }
        self.values = try Self.capture(keys, of: container, in: decoder)
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
        for (key, value) in values {
            try container.encode(encodable(value, forKey: key), forKey: AnyCodingKey(key))
        }
    }

    /// Writes the captured fields into `container`, except those whose key the model declares.
    ///
    /// A record can hold a captured field under a key its type declares when a migration step carried the old
    /// record's unknown fields into a version that declares that key. The declared property is what the state
    /// means, so the captured value is never written, even when the property writes nothing (a `nil` optional):
    /// written, it would be read back as the property's value — or, not being one, make the saved file fail to
    /// load as it is (found by fuzzing: a version 1 favorite with `"createdAt": ""`).
    ///
    /// - Parameters:
    ///   - container: The record's keyed container.
    ///   - declared: The keys the model writes itself (`@StateModel` passes them).
    public func encode(to container: inout KeyedEncodingContainer<AnyCodingKey>, skipping declared: [String]) throws {
        for (key, value) in values where !declared.contains(key) {
            try container.encode(encodable(value, forKey: key), forKey: AnyCodingKey(key))
        }
    }

    /// Writes the captured fields into the object being encoded.
    ///
    /// Call it before encoding the declared keys, so that a declared key written later replaces a captured one.
    public func encode(to encoder: any Encoder) throws {
        guard !values.isEmpty else { return }
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        for (key, value) in values {
            try container.encode(encodable(value, forKey: key), forKey: AnyCodingKey(key))
        }
    }

    /// What to encode for the field `key`: its kept text, which StateStore's encoder writes as it is and any
    /// other encoder as `value`, or `value` itself.
    private func encodable(_ value: JSONValue, forKey key: String) -> KeptJSONText {
        KeptJSONText(text: jsonText(forKey: key), value: value)
    }
}

extension UnknownFields: Hashable {
    /// Whether both hold the same values, however they were written.
    public static func == (lhs: UnknownFields, rhs: UnknownFields) -> Bool {
        lhs.values == rhs.values
    }

    /// Hashes the values.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(values)
    }
}
