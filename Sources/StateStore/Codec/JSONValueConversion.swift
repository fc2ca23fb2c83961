import FoundationEssentials

/// Converts between typed values and `JSONValue` with a state file's date coding: how a reverse step keeps a
/// field in unknown fields, and how the up step reads it back.
enum JSONValueConversion {
    /// `value` as the state file would write it.
    static func value<Value: Encodable>(of value: Value, dateCoding: DateCoding) throws -> JSONValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        switch dateCoding {
        case .iso8601: encoder.dateEncodingStrategy = .custom(StateCodec<Int>.encodeISO8601)
        case .secondsSince1970: encoder.dateEncodingStrategy = .secondsSince1970
        }
        return try JSONDecoder().decode(JSONValue.self, from: encoder.encode(value))
    }

    /// `stored` read as `Value`, as the state file would read it.
    static func decode<Value: Decodable>(
        _ type: Value.Type, from stored: JSONValue, dateCoding: DateCoding
    ) throws -> Value {
        let decoder = JSONDecoder()
        switch dateCoding {
        case .iso8601: decoder.dateDecodingStrategy = .custom(StateCodec<Int>.decodeISO8601)
        case .secondsSince1970: decoder.dateDecodingStrategy = .secondsSince1970
        }
        return try decoder.decode(Value.self, from: JSONEncoder().encode(stored))
    }
}
