import FoundationEssentials

/// An untyped JSON value, used to carry fields a model does not know from load to save unchanged.
///
/// Numbers keep their value exactly wherever `Codable` can hold it: integers in `Int64` or `UInt64`, other
/// numbers in `Decimal` (38 significant digits, exponents −128…127), and only what `Decimal` cannot hold as
/// `Double`. The value is kept, not the spelling: `1.0` is written back as `1` and `1e2` as `100`.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer that fits in `Int64` (also `1.0` or `1e2`, which are integers in value).
    case integer(Int64)
    /// An integer above `Int64.max` that fits in `UInt64`.
    case unsignedInteger(UInt64)
    /// Any other number `Decimal` holds: fractions such as `0.1` exactly, and integers of up to 38 digits.
    ///
    /// `Codable` gives no access to a number's text, and `JSONDecoder` keeps only the first 38 significant
    /// digits of a longer one, so a number with more digits than that is not kept exactly.
    case decimal(Decimal)
    /// A number outside `Decimal`'s range, such as `1e300` or `1.5e-300`, and negative zero: the nearest
    /// binary64 value, written back in the shortest form that reads as the same `Double`.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])
}

extension JSONValue: Codable {
    /// Decodes any JSON value.
    ///
    /// - Throws: `DecodingError.dataCorrupted` at the value's coding path for a number that even `Double`
    ///   cannot hold (such as `1e400`): it cannot be written back, so it is not silently replaced.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
            return
        }
        if let value = try? container.decode(Bool.self) {
            self = .bool(value)
            return
        }
        // Int64 first: the common case pays for no other attempt.
        if let value = try? container.decode(Int64.self) {
            self = value == 0 ? Self.zero(container) : .integer(value)
            return
        }
        do {
            self = Self.number(try container.decode(Decimal.self), container)
            return
        } catch DecodingError.typeMismatch {
            // Not a number.
        } catch {
            self = try Self.outsideDecimalRange(container, decoder.codingPath)
            return
        }
        do {
            self = .string(try container.decode(String.self))
            return
        } catch DecodingError.typeMismatch {
            // Not a string.
        }
        do {
            self = .array(try container.decode([JSONValue].self))
            return
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.count == decoder.codingPath.count {
            // Not an array; an error inside one is thrown as it is.
        }
        self = .object(try Self.members(of: decoder))
    }

    /// The members of an object, read in the order of their keys: a `[String: JSONValue]` decode reads them in the
    /// order of a dictionary, which differs from run to run, so that of two unreadable members it would name
    /// either in its error.
    private static func members(of decoder: any Decoder) throws -> [String: JSONValue] {
        let object = try decoder.container(keyedBy: AnyCodingKey.self)
        var members: [String: JSONValue] = [:]
        for key in object.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
            members[key.stringValue] = try object.decode(JSONValue.self, forKey: key)
        }
        return members
    }

    /// Encodes the value as it was read.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .unsignedInteger(let value): try container.encode(value)
        case .decimal(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    private static let int64Max = Decimal(Int64.max)
    private static let uint64Max = Decimal(UInt64.max)

    /// `0`, or `-0` kept as a negative `Double` zero (the `Int64` decoding drops the sign).
    private static func zero(_ container: any SingleValueDecodingContainer) -> JSONValue {
        guard let value = try? container.decode(Double.self), value.sign == .minus else { return .integer(0) }
        return .double(value)
    }

    /// A number that does not fit in `Int64`: `UInt64` when it is an integer in its range (decoded only then,
    /// so other numbers pay for no failed attempt), otherwise the `Decimal`.
    private static func number(_ value: Decimal, _ container: any SingleValueDecodingContainer) -> JSONValue {
        if value > int64Max, value <= uint64Max, let unsigned = try? container.decode(UInt64.self) {
            return .unsignedInteger(unsigned)
        }
        return .decimal(value)
    }

    /// A number `Decimal` cannot hold: its `Double`, or an error naming where it is when `Double` cannot hold it
    /// either.
    private static func outsideDecimalRange(
        _ container: any SingleValueDecodingContainer, _ codingPath: [any CodingKey]
    ) throws -> JSONValue {
        do {
            return .double(try container.decode(Double.self))
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "a number outside the range of Double cannot be kept unchanged",
                    underlyingError: error))
        }
    }
}
