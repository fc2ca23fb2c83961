import StateJSON

/// A value decoded the salvage way: a ``StateSalvageable`` type through ``StateSalvageable/init(salvaging:)``,
/// an array element by element the same way, anything else as the decoder's own container decodes it (so that
/// date, data and number strategies apply); then, when the value has the wrong type, the one unambiguous
/// conversion for `String` or `Int`.
package struct Salvaging<Value: Decodable>: Decodable {
    package let value: Value

    package init(from decoder: any Decoder) throws {
        do {
            value = try Self.decodeNested(from: decoder)
        } catch let error as DecodingError {
            guard case .typeMismatch(_, let context) = error, context.codingPath.count == decoder.codingPath.count,
                let coerced = Self.coerce(from: decoder)
            else { throw error }
            if let load = LoadContext.of(decoder) {
                load.recordCoerced(at: decoder.codingPath, from: coerced.from, to: coerced.to)
            }
            value = coerced.value
        }
    }

    /// The value without conversion.
    package static func decodeNested(from decoder: any Decoder) throws -> Value {
        if let salvageable = Value.self as? any StateSalvageable.Type {
            return try salvageable.init(salvaging: decoder) as! Value
        }
        if let array = Value.self as? any SalvageableArray.Type {
            return try array.salvagingElements(from: decoder) as! Value
        }
        return try decoder.singleValueContainer().decode(Value.self)
    }

    /// A number read as its text for `String`, or a string of digits read as `Int`; `nil` for anything else.
    private static func coerce(from decoder: any Decoder) -> (value: Value, from: String, to: String)? {
        guard let container = try? decoder.singleValueContainer() else { return nil }
        if Value.self == String.self {
            guard let stored = try? container.decode(JSONValue.self) else { return nil }
            let text: String
            switch stored {
            case .integer(let number): text = String(number)
            case .unsignedInteger(let number): text = String(number)
            case .decimal(let number): text = "\(number)"
            case .double(let number): text = "\(number)"
            default: return nil
            }
            return (text as! Value, text, JSONText.quoted(text))
        }
        if Value.self == Int.self {
            guard let text = try? container.decode(String.self), let number = Self.wholeNumber(text) else {
                return nil
            }
            return (number as! Value, JSONText.quoted(text), String(number))
        }
        return nil
    }

    /// `-?[0-9]+` that fits in `Int`; no sign `+`, spaces, fractions or exponents.
    private static func wholeNumber(_ text: String) -> Int? {
        let digits = text.utf8.first == UInt8(ascii: "-") ? text.utf8.dropFirst() : text.utf8[...]
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Int(text)
    }
}

/// An array whose elements are decoded the salvage way (``Salvaging``): all must be read, each with its own
/// salvage; only a `@StateRecords` array drops the ones that cannot be.
protocol SalvageableArray {
    static func salvagingElements(from decoder: any Decoder) throws -> Self
}

extension Array: SalvageableArray where Element: Decodable {
    static func salvagingElements(from decoder: any Decoder) throws -> [Element] {
        var container = try decoder.unkeyedContainer()
        var elements: [Element] = []
        if let count = container.count { elements.reserveCapacity(count) }
        while !container.isAtEnd {
            elements.append(try container.decode(Salvaging<Element>.self).value)
        }
        return elements
    }
}
