/// A value with the exact JSON text it was read as: ``CompactJSONEncoder`` writes the text as it is, any other
/// encoder encodes the value.
///
/// StateCoding wraps the unknown fields a direct read kept in one, so that StateStore's encoder writes them back
/// byte for byte while `JSONEncoder` (pretty-printed files) writes their values.
package struct KeptJSONText: Encodable, Sendable {
    /// The value's JSON text (valid, complete, as it was in the file); nil when there is none to keep.
    package let text: String?
    /// The value the text reads as.
    package let value: any Encodable & Sendable

    /// The value `value`, written as `text` where StateStore's encoder writes it.
    package init(text: String?, value: any Encodable & Sendable) {
        self.text = text
        self.value = value
    }

    /// Encodes the value: an encoder other than StateStore's cannot write text as it is.
    package func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder)
    }
}
