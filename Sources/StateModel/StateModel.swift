import StateCoding

/// Generates a versioned record's `Codable` conformance: its `init(from:)`, `encode(to:)` and a memberwise
/// initializer with the declared defaults.
///
/// ```swift
/// @StateModel
/// public struct Pane: Sendable, Equatable {
///     public var id: String
///     public var folder: String
///     public var focusedTabIndex: Int = 0        // missing or null in a file: 0, recorded as defaulted
///     @StateKey("mode") public var viewMode: String
///     public var closedAt: Date?                 // left out when nil
///     public var unknownFields = UnknownFields()  // every other key, kept and written back (generated if absent)
/// }
/// ```
///
/// What it generates, for every stored instance property in declaration order:
/// - a property with an initial value is read with `decodeIfPresent`; when its key is missing or `null` it takes
///   that value and the load report records the field, by path, in `LoadReport.fieldsDefaulted`;
/// - an optional is read with `decodeIfPresent` and left out of the file when `nil` (write it as `null` with
///   ``StateWritesNull()``); any other property is required;
/// - a property named differently from its key says so with ``StateKey(_:)``; one stored with a rule of its own
///   (a UUID as lower-case text, say) names a `StateFieldCoder` with ``StateCoder(_:)``;
/// - every key of the object that the struct does not declare is kept in its `UnknownFields` property and written
///   back, so a file a newer release wrote keeps its fields through any number of saves. A struct that declares
///   none gets one, `unknownFields` (`@StateModel(unknownFields: .drop)` opts out: the keys are then dropped and
///   each one is listed in the load report). The object's keys are read in one pass over one container: declared
///   keys are decoded and every other key is kept; on encode the kept keys are written first, so a declared key
///   wins;
/// - a memberwise `init` (defaults as declared, optionals `nil`, unknown fields empty) unless the struct declares
///   an initializer of its own, as Swift does; its access level is the struct's.
///
/// The struct gets `Codable` unless it names `Decodable` or `Encodable` itself, in which case only that half is
/// generated (a frozen, read-only version type is `Decodable`).
///
/// A struct that decodes also gets `StateSalvageable`: an `init(salvaging:)` that the load uses only when the
/// strict decode of a file failed and the corrupt-file policy is `CorruptFilePolicy.salvage`. It reads every field
/// as `init(from:)` does, except that a field with a default (or an optional) takes it when its value cannot be
/// read, a number is read as a `String` and a string of digits as an `Int`, and an array marked ``StateRecords()``
/// drops the records that cannot be read instead of failing. Each change is listed in the load report.
///
/// It also gets `StateDirectDecodable`: an `init(stateReader:)` that reads the record straight from the file's
/// bytes, in one pass, giving what `init(from:)` gives (the same defaults recorded, the same unknown fields kept)
/// or throwing, in which case the load reads the file through `init(from:)`. StateStore loads this way every
/// version whose type has it. Each field's type needs a direct reader too (`StateDirectDecodable`; StateCoding
/// conforms the standard types, `Optional`, `Array` and every `ExtensibleEnum`), and a ``StateCoder(_:)``'s coder
/// needs `StateDirectFieldCoder`: a field without one is a compile-time deprecation warning, and the model loads
/// through `Codable`. It gets `StateDirectEncodable` too when it encodes: a `write(stateWriter:)` that writes the
/// bytes `encode(to:)` gives through StateStore's encoder, straight, which a save uses (a field without a direct
/// writer is a warning in the same way, and the model saves through `Encodable`).
///
/// A declaration it cannot honour is a compile-time error that says what to write instead: a `let` with an initial
/// value (Codable cannot set it), a computed or `lazy` property, a property wrapper, a property without a written
/// type, a default on an optional (it would hide a stored `null`), a hand-written `init(from:)`, `encode(to:)` or
/// `CodingKeys`.
@attached(member, names: named(init), named(encode), named(write), named(StateCodingKeys), named(unknownFields))
@attached(extension, conformances: Decodable, Encodable, StateSalvageable, StateDirectDecodable, StateDirectEncodable)
public macro StateModel(unknownFields: StateModelUnknownFields = .keep) =
    #externalMacro(module: "StateModelMacros", type: "StateModelMacro")

/// What a ``StateModel(unknownFields:)`` record does with the keys of its object that it does not declare.
///
/// A file from a newer release holds fields this release does not know. Kept, they are written back by every
/// save, so the newer release finds them again; dropped, they are gone at the first save.
public enum StateModelUnknownFields: Sendable {
    /// Keep them (the default): a record that declares no `UnknownFields` property gets one, `unknownFields`, with
    /// the struct's access level, and every undeclared key is kept there and written back.
    case keep
    /// Drop them: the record declares no `UnknownFields` property and gets none. Every key dropped is listed, by
    /// path with a count, in the load report (`LoadReport.unknownKeysDropped`, with a warning), and a file from a
    /// newer release that lost a key this way is saved as the current version, not labelled with the newer one.
    case drop
}

/// The key a ``StateModel(unknownFields:)`` property is stored under, when it differs from the property's name.
///
/// ```swift
/// @StateKey("display_name") var displayName: String
/// ```
///
/// Keys are part of the file format: once a version has shipped, never change one.
@attached(peer)
public macro StateKey(_ key: String) = #externalMacro(module: "StateModelMacros", type: "StateFieldAttributeMacro")

/// Writes a ``StateModel(unknownFields:)`` optional property as `null` when it is `nil`, instead of leaving its key out.
@attached(peer)
public macro StateWritesNull() = #externalMacro(module: "StateModelMacros", type: "StateFieldAttributeMacro")

/// Reads and writes a ``StateModel(unknownFields:)`` property with a `StateFieldCoder` instead of its own `Codable`.
///
/// ```swift
/// @StateCoder(LowercaseUUIDCoder.self) var id: UUID
/// ```
@attached(peer)
public macro StateCoder<Coder: StateFieldCoder>(_ coder: Coder.Type) =
    #externalMacro(module: "StateModelMacros", type: "StateFieldAttributeMacro")

/// Marks an array whose elements are independent records: when a salvage (`CorruptFilePolicy.salvage`) cannot
/// read one of them, that record is dropped and listed in the load report, and the others are kept.
///
/// ```swift
/// @StateRecords public var panes: [Pane]
/// @StateRecords public var tabs: [Tab] = []
/// ```
///
/// Without it, an element that cannot be read fails the whole array, and with it the record that holds it.
@attached(peer)
public macro StateRecords() = #externalMacro(module: "StateModelMacros", type: "StateFieldAttributeMacro")

/// Marks a stored property of a ``StateModel(unknownFields:)`` struct that the file never holds: a read leaves it at
/// its initial value, a write leaves it out, and the memberwise initializer does not take it.
///
/// ```swift
/// @StateTransient var lastShown: Date? = nil
/// ```
///
/// It takes no other `@State…` attribute, and it needs an initial value. It has no key, so an undeclared key of
/// the same name is kept among the unknown fields like any other.
@attached(peer)
public macro StateTransient() = #externalMacro(module: "StateModelMacros", type: "StateFieldAttributeMacro")
