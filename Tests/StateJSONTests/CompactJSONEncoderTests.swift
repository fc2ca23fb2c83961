import Foundation
import StateStore
import TestSupport
import Testing

@testable import StateJSON

/// `CompactJSONEncoder` writes what `JSONEncoder` writes with `[.sortedKeys, .withoutEscapingSlashes]`, byte for
/// byte, and throws (so that the codec falls back to `JSONEncoder`) where it does not.
@Suite("Compact JSON encoder: JSONEncoder's bytes without its tree")
struct CompactJSONEncoderTests {
    private static func reference<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        return try encoder.encode(value)
    }

    private static func compact<T: Encodable>(_ value: T) throws -> Data {
        try CompactJSONEncoder(encodeDate: nil).encode(value)
    }

    private static func expectSameBytes<T: Encodable>(
        _ value: T, sourceLocation: SourceLocation = #_sourceLocation
    )
        throws
    {
        let expected = try reference(value)
        let actual = try compact(value)
        #expect(
            actual == expected,
            "compact: \(String(decoding: actual, as: UTF8.self))\nJSONEncoder: \(String(decoding: expected, as: UTF8.self))",
            sourceLocation: sourceLocation)
    }

    @Test func randomDocumentsAreWrittenAsJSONEncoderWritesThem() throws {
        var random = SplitMix64(seed: 0x5EED_16)
        for _ in 0..<400 {
            try Self.expectSameBytes(JSONValue.object(Self.object(depth: 0, &random)))
        }
    }

    @Test(arguments: [
        "", "plain", "quote \" backslash \\ slash /", "controls \u{0}\u{1}\u{8}\u{9}\u{a}\u{b}\u{c}\u{d}\u{1f}\u{7f}",
        "unicode é 漢字 😇 \u{2028}", "key with \"quotes\"",
    ])
    func stringsAndKeysAreEscapedAsJSONEncoderEscapesThem(text: String) throws {
        try Self.expectSameBytes(JSONValue.object([text: .string(text), "k": .array([.string(text)])]))
    }

    @Test(arguments: [0, 1, 7, 64, 100_000])
    func theRoomMadeUpFrontChangesNoByte(capacity: Int) throws {
        var random = SplitMix64(seed: 0xCA9A_C17E)
        for _ in 0..<50 {
            let value = JSONValue.object(Self.object(depth: 0, &random))
            let written = try CompactJSONEncoder(encodeDate: nil, capacity: capacity).encode(value)
            #expect(written == (try Self.reference(value)), "capacity \(capacity)")
        }
    }

    @Test func numbersAreWrittenAsJSONEncoderWritesThem() throws {
        let doubles: [Double] = [
            0, -0.0, 1, -1, 0.1, 1.5, 1e16, 1e21, 1e-7, 123_456_789.125, .greatestFiniteMagnitude,
            .leastNonzeroMagnitude, -.leastNormalMagnitude, 2.0.squareRoot(),
        ]
        let values: [JSONValue] =
            doubles.map { .double($0) } + [
                .integer(.min), .integer(.max), .integer(0), .unsignedInteger(.max),
                .decimal(Decimal(string: "123456789012345678901234567890.000001")!), .decimal(Decimal(string: "-0.5")!),
            ]
        try Self.expectSameBytes(JSONValue.array(values))
        try Self.expectSameBytes(Numbers())
    }

    @Test func membersComeInKeyOrderAndTheLastOfARepeatedKeyWins() throws {
        try Self.expectSameBytes(Unordered())
    }

    @Test func datesDataURLsAndEmptyValuesAreWrittenAsJSONEncoderWritesThem() throws {
        try Self.expectSameBytes(Specials())
    }

    @Test func whatItDoesNotSupportThrowsInsteadOfWritingSomethingElse() {
        #expect(throws: CompactEncodingUnsupported.self) { try Self.compact(Nested()) }
        #expect(throws: CompactEncodingUnsupported.self) { try Self.compact(JSONValue.double(.nan)) }
        #expect(throws: CompactEncodingUnsupported.self) { try Self.compact(Interleaved()) }
    }

    // MARK: Values

    private static func object(depth: Int, _ random: inout SplitMix64) -> [String: JSONValue] {
        var object: [String: JSONValue] = [:]
        for _ in 0..<Int.random(in: 0...6, using: &random) {
            object[key(&random)] = value(depth: depth + 1, &random)
        }
        return object
    }

    private static func key(_ random: inout SplitMix64) -> String {
        let alphabet = Array("abcXYZ_09-é漢😇\" \\/\n\u{1}")
        return String((0..<Int.random(in: 0...8, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
    }

    private static func value(depth: Int, _ random: inout SplitMix64) -> JSONValue {
        switch Int.random(in: 0..<(depth < 4 ? 9 : 7), using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .integer(Int64.random(in: .min ... .max, using: &random))
        case 3: return .unsignedInteger(UInt64.random(in: UInt64(Int64.max)...UInt64.max, using: &random))
        case 4:
            let double = Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &random))
            return .double(double.isFinite ? double : 0.25)
        case 5: return .string(key(&random))
        case 6: return .decimal(Decimal(Int.random(in: -1_000_000...1_000_000, using: &random)) / 1000)
        case 7: return .array((0..<Int.random(in: 0...5, using: &random)).map { _ in value(depth: depth + 1, &random) })
        default: return .object(object(depth: depth, &random))
        }
    }
}

private struct Numbers: Encodable {
    var int8: Int8 = .min
    var uint16: UInt16 = .max
    var float: Float = 0.1
    var wholeFloat: Float = 3
    var int: Int = -42
}

/// Keys written out of order, one twice (the later value wins), and two containers of one encoder (merged).
private struct Unordered: Encodable {
    enum Keys: String, CodingKey {
        case zebra, apple, mango, aa, a
        case capitalApple = "Apple"
    }

    func encode(to encoder: any Encoder) throws {
        var first = encoder.container(keyedBy: Keys.self)
        try first.encode(1, forKey: .zebra)
        try first.encode("first", forKey: .mango)
        try first.encode([3, 2, 1], forKey: .apple)
        var second = encoder.container(keyedBy: Keys.self)
        try second.encode("second", forKey: .mango)
        try second.encode(true, forKey: .capitalApple)
        try second.encodeNil(forKey: .aa)
        try second.encode(["x": 1, "b": 2], forKey: .a)
    }
}

private struct Specials: Encodable {
    struct Nothing: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    var date = Date(timeIntervalSince1970: 1_700_000_000.25)
    var data = Data([0, 1, 2, 250, 251])
    var url = URL(string: "https://example.com/a/b?c=d")!
    var nothing = Nothing()
    var empty: [String: Int] = [:]
    var emptyArray: [Int] = []
    var optional: Int? = nil
    var dictionary: [Int: String] = [3: "c", 1: "a", 20: "t"]
}

private struct Nested: Encodable {
    enum Keys: CodingKey { case inner, value }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        var inner = container.nestedContainer(keyedBy: Keys.self, forKey: .inner)
        try inner.encode(1, forKey: .value)
    }
}

/// Writes into an outer container while an inner value is still being written.
private struct Interleaved: Encodable {
    enum Keys: CodingKey { case outer, late }

    struct Inner: Encodable {
        let outer: KeyedEncodingContainer<Keys>

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var outer = outer
            try outer.encode(2, forKey: .late)
            try container.encode(1, forKey: .outer)
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(Inner(outer: container), forKey: .outer)
    }
}
