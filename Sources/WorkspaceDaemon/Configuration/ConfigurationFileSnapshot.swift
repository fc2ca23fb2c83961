import Configuration
import StateJSON

/// The configuration file's values for swift-configuration's `FileProvider`, read with the state file's JSON
/// reader instead of swift-configuration's `JSONSnapshot` (Foundation's `JSONSerialization`), so that the daemon
/// links FoundationEssentials only. It reads what `JSONSnapshot` reads, the same way: nested objects give dotted
/// keys, `null` is no value, a number or a Boolean is read as any of the three (a whole `2.0` as an integer, `true`
/// as 1), and an array holds strings, or numbers and Booleans, alone. A byte order mark and commas that only close
/// a list are taken out first (``ConfigurationJSONText``).
package struct ConfigurationFileSnapshot: FileConfigSnapshot {
    /// No options: the daemon's file has no secrets and no bytes to decode.
    package struct ParsingOptions: FileParsingOptions {
        package static var `default`: Self { Self() }
    }

    /// A number or a Boolean, as read.
    package enum Number: Sendable, CustomStringConvertible {
        /// `true` or `false`.
        case bool(Bool)
        /// A whole number that fits an `Int`.
        case int(Int)
        /// Any other number.
        case double(Double)

        package var description: String {
            switch self {
            case .bool(let value): "\(value)"
            case .int(let value): "\(value)"
            case .double(let value): "\(value)"
            }
        }
    }

    /// A value as read.
    package enum Value: Sendable, CustomStringConvertible {
        /// A string.
        case string(String)
        /// A number or a Boolean.
        case number(Number)
        /// `[]`, which any array type takes.
        case emptyArray
        /// An array of strings.
        case strings([String])
        /// An array of numbers and Booleans.
        case numbers([Number])

        package var description: String {
            switch self {
            case .string(let text): text
            case .number(let number): number.description
            case .emptyArray: "[]"
            case .strings(let texts): texts.joined(separator: ",")
            case .numbers(let numbers): numbers.map(\.description).joined(separator: ",")
            }
        }
    }

    /// Why the file's values could not be read, or a value not given as the type asked for.
    package enum Failure: Error, CustomStringConvertible {
        /// The document is JSON, but not an object.
        case topLevelNotAnObject
        /// An array holds arrays, objects, nulls or mixed strings and numbers; or a number does not read.
        case unsupportedValue(key: String)
        /// The value at `key` is not one `type` takes.
        case notConvertible(key: String, type: ConfigType)

        package var description: String {
            switch self {
            case .topLevelNotAnObject: "The top-level value of the JSON file must be an object."
            case .unsupportedValue(let key): "Unsupported value at \(key): an array of arrays, objects or nulls"
            case .notConvertible(let key, let type): "\(key) cannot be read as \(type)"
            }
        }
    }

    /// The provider's name in swift-configuration's reports: the file's path.
    package let providerName: String
    /// The values by dotted key.
    package let values: [String: Value]

    /// Reads the file's `data`.
    ///
    /// - Throws: ``Failure`` or the JSON reader's error when the file is not a JSON object of supported values.
    package init(data: RawSpan, providerName: String, parsingOptions: ParsingOptions) throws {
        try self.init(
            strict: ConfigurationJSONText.strict(data.withUnsafeBytes { Array($0) }), providerName: providerName)
    }

    /// Reads a file's bytes already made strict (``ConfigurationJSONText/strict(_:)``).
    ///
    /// - Throws: ``Failure`` or the JSON reader's error when the file is not a JSON object of supported values.
    package init(strict bytes: [UInt8], providerName: String) throws {
        self.providerName = providerName
        self.values = try bytes.withUnsafeBytes { raw in try Self.values(of: raw) }
    }

    /// The document's values by dotted key; a later duplicate key wins.
    private static func values(of raw: UnsafeRawBufferPointer) throws -> [String: Value] {
        var reader = JSONPullReader(bytes: raw)
        guard try reader.peekKind() == .object else { throw Failure.topLevelNotAnObject }
        var values: [String: Value] = [:]
        func visit(_ prefix: String) throws {
            try reader.beginObject()
            while let key = try reader.nextKey() {
                let name = prefix.isEmpty ? key.string : prefix + "." + key.string
                switch try reader.peekKind() {
                case .object:
                    try visit(name)
                case .null:
                    _ = try reader.readNull()
                    values[name] = nil
                case .array:
                    values[name] = try array(name)
                case .string:
                    values[name] = .string(try reader.readString())
                case .number, .bool:
                    values[name] = .number(try number())
                }
            }
        }
        func array(_ name: String) throws -> Value {
            try reader.beginArray()
            var strings: [String] = []
            var numbers: [Number] = []
            while try reader.nextElement() {
                switch try reader.peekKind() {
                case .string where numbers.isEmpty:
                    strings.append(try reader.readString())
                case .number where strings.isEmpty, .bool where strings.isEmpty:
                    numbers.append(try number())
                default:
                    throw Failure.unsupportedValue(key: name)
                }
            }
            if !strings.isEmpty { return .strings(strings) }
            return numbers.isEmpty ? .emptyArray : .numbers(numbers)
        }
        func number() throws -> Number {
            if try reader.peekKind() == .bool { return .bool(try reader.readBool()) }
            let range = try reader.skipValue(checkingValues: true)
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: raw[range]), as: UTF8.self)
            // A whole value is an integer (`2`, `2.0`, `2e0`), as JSONSerialization's numbers cast to `Int` when
            // they can; anything else (a fraction, an integer too large) is a Double.
            if let whole = Int(text) { return .int(whole) }
            guard let double = Double(text) else { throw Failure.unsupportedValue(key: text) }
            if let whole = Int(exactly: double) { return .int(whole) }
            return .double(double)
        }
        try visit("")
        try reader.finish()
        return values
    }

    /// The value of the dotted `key` as `type`; no value when the file has none.
    ///
    /// - Throws: ``Failure/notConvertible(key:type:)`` when the value is not one `type` takes.
    package func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        let name = key.components.joined(separator: ".")
        guard let value = values[name] else { return LookupResult(encodedKey: name, value: nil) }
        return LookupResult(
            encodedKey: name, value: ConfigValue(try Self.content(of: value, name, type), isSecret: false))
    }

    /// `value` as `type`, converted as `JSONSnapshot` converts: a number or Boolean to any of the three.
    private static func content(of value: Value, _ name: String, _ type: ConfigType) throws -> ConfigContent {
        func mismatch() -> Failure { .notConvertible(key: name, type: type) }
        func int(_ number: Number) throws -> Int {
            switch number {
            case .bool(let value): return value ? 1 : 0
            case .int(let value): return value
            case .double(let value):
                guard let whole = Int(exactly: value) else { throw mismatch() }
                return whole
            }
        }
        func double(_ number: Number) -> Double {
            switch number {
            case .bool(let value): value ? 1 : 0
            case .int(let value): Double(value)
            case .double(let value): value
            }
        }
        func bool(_ number: Number) -> Bool {
            switch number {
            case .bool(let value): value
            case .int(let value): value != 0
            case .double(let value): value != 0
            }
        }
        switch (type, value) {
        case (.string, .string(let text)): return .string(text)
        case (.int, .number(let number)): return .int(try int(number))
        case (.double, .number(let number)): return .double(double(number))
        case (.bool, .number(let number)): return .bool(bool(number))
        case (.stringArray, .emptyArray): return .stringArray([])
        case (.stringArray, .strings(let texts)): return .stringArray(texts)
        case (.intArray, .emptyArray): return .intArray([])
        case (.intArray, .numbers(let numbers)): return .intArray(try numbers.map(int))
        case (.doubleArray, .emptyArray): return .doubleArray([])
        case (.doubleArray, .numbers(let numbers)): return .doubleArray(numbers.map(double))
        case (.boolArray, .emptyArray): return .boolArray([])
        case (.boolArray, .numbers(let numbers)): return .boolArray(numbers.map(bool))
        default: throw mismatch()
        }
    }

    /// `path[N values]`.
    package var description: String { "\(providerName)[\(values.count) values]" }

    /// `path[N values: key=value, …]`, sorted by key.
    package var debugDescription: String {
        let listed = values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
        return "\(providerName)[\(values.count) values: \(listed)]"
    }
}
