import Foundation
import TestSupport
import Testing

@testable import StateJSON

// Shared by the JSONPullReader*Tests files: a value read down to every string and number, read by JSONDecoder
// and by the pull reader, so that a test compares what each accepts and what it reads.

/// Any JSON value, read down to every string and number: numbers as the bits of a `Double`, objects with the
/// first value of each key (compared as Swift strings), as JSONDecoder keeps it.
indirect enum ReadJSON: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(bits: UInt64)
    case string(String)
    case array([ReadJSON])
    case object([String: ReadJSON])

    /// A key of any name.
    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Reads any value through JSONDecoder's containers, as a Decodable type that reads every member would.
    init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: Key.self) {
            var members: [String: ReadJSON] = [:]
            for key in container.allKeys {
                members[key.stringValue] = try container.decode(ReadJSON.self, forKey: key)
            }
            self = .object(members)
        } else if var container = try? decoder.unkeyedContainer() {
            var elements: [ReadJSON] = []
            while !container.isAtEnd { elements.append(try container.decode(ReadJSON.self)) }
            self = .array(elements)
        } else {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let bool = try? container.decode(Bool.self) {
                self = .bool(bool)
            } else if let number = try? container.decode(Double.self) {
                self = .number(bits: number.bitPattern)
            } else {
                self = .string(try container.decode(String.self))
            }
        }
    }

    /// Reads the next value with `reader`, as `init(from:)` reads it with JSONDecoder: every member and element,
    /// the first value of a repeated key (a later one skipped, unread, as JSONDecoder never decodes it).
    static func pull(_ reader: inout JSONPullReader) throws(JSONReadError) -> ReadJSON {
        switch try reader.peekKind() {
        case .object:
            try reader.beginObject()
            var members: [String: ReadJSON] = [:]
            while let key = try reader.nextKey() {
                let name = key.string
                if members[name] == nil {
                    members[name] = try pull(&reader)
                } else {
                    _ = try reader.skipValue()
                }
            }
            return .object(members)
        case .array:
            try reader.beginArray()
            var elements: [ReadJSON] = []
            while try reader.nextElement() { elements.append(try pull(&reader)) }
            return .array(elements)
        case .string: return .string(try reader.readString())
        case .number: return .number(bits: try reader.readDouble().bitPattern)
        case .bool: return .bool(try reader.readBool())
        case .null:
            _ = try reader.readNull()
            return .null
        }
    }
}

/// An object of which only the member "a" is read, as a Decodable struct with one field reads it: JSONDecoder
/// checks the other members only as far as it checks what nothing reads.
struct OnlyA: Decodable, Equatable {
    /// The first "a" member, nil when absent or null.
    let a: ReadJSON?

    /// Reads it with `reader`, skipping every other member and any later "a".
    static func pull(_ reader: inout JSONPullReader) throws(JSONReadError) -> OnlyA {
        try reader.beginObject()
        var a: ReadJSON?
        var seen = false
        while let key = try reader.nextKey() {
            if !seen && key.matches("a") {
                seen = true
                a = try reader.readNull() ? nil : try ReadJSON.pull(&reader)
            } else {
                _ = try reader.skipValue()
            }
        }
        return OnlyA(a: a)
    }
}

/// What a reading gave: a value, or a refusal.
enum ReadOutcome<Value: Equatable>: Equatable, CustomStringConvertible {
    /// The bytes were read as this value.
    case value(Value)
    /// The bytes were refused.
    case refused

    /// The value, or "refused".
    var description: String {
        switch self {
        case .value(let value): "\(value)"
        case .refused: "refused"
        }
    }
}

/// What JSONDecoder makes of `bytes` as a `T`.
func decoderOutcome<T: Decodable & Equatable>(_ type: T.Type, _ bytes: [UInt8]) -> ReadOutcome<T> {
    guard let value = try? JSONDecoder().decode(T.self, from: Data(bytes)) else { return .refused }
    return .value(value)
}

/// What a reader of `bytes` makes of them with `read`, followed by `finish()`.
func readerOutcome<T: Equatable>(
    _ bytes: [UInt8], _ read: (inout JSONPullReader) throws(JSONReadError) -> T
) -> ReadOutcome<T> {
    bytes.withUnsafeBytes { raw in
        var reader = JSONPullReader(bytes: raw)
        do throws(JSONReadError) {
            let value = try read(&reader)
            try reader.finish()
            return .value(value)
        } catch {
            return .refused
        }
    }
}

/// Whether JSONDecoder and the reader agree on `bytes`: read whole (`ReadJSON`), and with only "a" read (`OnlyA`).
func expectAgreement(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
    let shown = String(decoding: bytes, as: UTF8.self).debugDescription
    let whole = readerOutcome(bytes) { (reader: inout JSONPullReader) throws(JSONReadError) in
        try ReadJSON.pull(&reader)
    }
    #expect(whole == decoderOutcome(ReadJSON.self, bytes), "whole \(shown)", sourceLocation: sourceLocation)
    let onlyA = readerOutcome(bytes) { (reader: inout JSONPullReader) throws(JSONReadError) in
        try OnlyA.pull(&reader)
    }
    #expect(onlyA == decoderOutcome(OnlyA.self, bytes), "only a: \(shown)", sourceLocation: sourceLocation)
}

/// `count` arrays nested in one another.
private func nestedArrays(_ count: Int) -> String {
    String(repeating: "[", count: count) + String(repeating: "]", count: count)
}

/// `count` objects nested in one another under the key "a", the innermost empty.
private func nestedObjects(_ count: Int) -> String {
    String(repeating: #"{"a":"#, count: count - 1) + "{}" + String(repeating: "}", count: count - 1)
}

@Suite("JSON pull reader: documents as JSONDecoder reads them", .heavy)
struct JSONPullReaderDocumentTests {
    @Test(arguments: [
        "{}", "[]", "1", "\"text\"", "true", "false", "null", " \r\n\t[ 1 ,\t2 ]\n ", "[true,false,null]",
        #"{"a" : 1 , "b":[ ] , "c" : { } }"#, "", " ", "\u{0B}[]", "\u{0C}[]", "\u{A0}[]", "[]\u{0}", "[] x", "[]]",
        "[[]", "[", "{", "1 2", "tru", "truex", "nul", "nulll", "[True]", "[nan]", "[Infinity]", "{\"a\"}",
        "{\"a\":}", "{\"a\" 1}", "{1:2}", "{\"a\":1 \"b\":2}", "[1 2]", "\"abc", "[\"a\\\"]", "{'a':1}", "[1;2]",
        "{\"a\":1}}", "/* */[]", "[]//",
    ])
    func structureIsReadAsJSONDecoderReadsIt(text: String) {
        expectAgreement(Array(text.utf8))
    }

    @Test(arguments: [
        "[1,]", "[1,,]", "[,]", "[,1]", "[1, ]", "[1,\n]", "{\"a\":1,}", "{,}", "{\"a\":1,,}", "{\"a\":1 , }",
        "[[],]", "[{},]", "{\"a\":[1,],}", "{\"b\":[1,],\"a\":2}", "{\"b\":[,],\"a\":2}", "{\"b\":{,},\"a\":2}",
        "{\"b\":{\"c\":1,},\"a\":2}", "{\"b\":[1,,],\"a\":2}",
    ])
    func oneTrailingCommaIsAllowedAsJSONDecoderAllowsIt(text: String) {
        expectAgreement(Array(text.utf8))
    }

    @Test func aUTF8ByteOrderMarkAtTheVeryStartIsSkipped() {
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        for body in ["{}", "1", " [1] ", "{\"a\":2}", "", " "] {
            expectAgreement(mark + Array(body.utf8))
            expectAgreement(mark + mark + Array(body.utf8))
            expectAgreement(Array(" ".utf8) + mark + Array(body.utf8))
            expectAgreement([0xEF, 0xBB] + Array(body.utf8))
        }
        var accepted = false
        let bytes = mark + Array("[7]".utf8)
        bytes.withUnsafeBytes { raw in
            var reader = JSONPullReader(bytes: raw)
            #expect(reader.byteOffset == 3)
            accepted = (try? reader.skipValue()) == 3..<6
        }
        #expect(accepted)
    }

    @Test func textInUTF16OrUTF32IsRefusedWhereJSONDecoderTranscodesIt() {
        // A documented difference: the reader reads UTF-8 only.
        let text = #"{"a":[1,"é"]}"#
        let encodings: [String.Encoding] = [.utf16BigEndian, .utf16LittleEndian, .utf32BigEndian, .utf32LittleEndian]
        for encoding in encodings {
            for bytes in [
                Array(text.data(using: encoding)!), [0xFF, 0xFE] + Array(text.data(using: .utf16LittleEndian)!),
            ] {
                #expect(decoderOutcome(ReadJSON.self, bytes) != .refused)
                let pulled = readerOutcome(bytes) { (reader: inout JSONPullReader) throws(JSONReadError) in
                    try ReadJSON.pull(&reader)
                }
                #expect(pulled == .refused)
            }
        }
    }

    @Test func nestingIsLimitedTo512ArraysAndObjectsCountedTogether() {
        for depth in [512, 513] {
            expectAgreement(Array(nestedArrays(depth).utf8))
            expectAgreement(Array(nestedObjects(depth).utf8))
            let mixed =
                String(repeating: "[{\"a\":", count: depth / 2) + "0" + String(repeating: "}]", count: depth / 2)
            expectAgreement(Array(mixed.utf8))
            // Skipped, unread, under a member the reader reads around: the object counts as one level.
            for inner in [depth - 1, depth] {
                expectAgreement(Array(#"{"a":1,"b":\#(nestedArrays(inner))}"#.utf8))
                expectAgreement(Array(#"{"b":\#(nestedObjects(inner)),"a":1}"#.utf8))
            }
        }
    }

    @Test(arguments: [
        // What nothing reads is checked for its structure and literals only, as JSONDecoder checks it.
        #"{"a":1,"b":01}"#, #"{"a":1,"b":1.}"#, #"{"a":1,"b":-}"#, #"{"a":1,"b":1e}"#, #"{"a":1,"b":1.2.3}"#,
        #"{"a":1,"b":--1}"#, #"{"a":1,"b":1-+e.}"#, #"{"a":1,"b":1x}"#, #"{"a":1,"b":0x10}"#, #"{"a":1,"b":1 2}"#,
        #"{"a":1,"b":+1}"#, #"{"a":1,"b":.5}"#, #"{"a":1,"b":1e400}"#, #"{"a":1,"b":"\q"}"#, #"{"a":1,"b":"\u12"}"#,
        #"{"a":1,"b":"\u12zz"}"#, #"{"a":1,"b":"\u12"x"}"#, #"{"a":1,"b":"\u"""""}"#, #"{"a":1,"b":"\uD800"}"#,
        #"{"a":1,"b":"\u"}"#, #"{"a":1,"b":"\u123"}"#,
        #"{"a":1,"b":"\"}"#, #"{"a":1,"b":"\\"}"#, #"{"a":1,"b":tru}"#, #"{"a":1,"b":nulL}"#, #"{"a":1,"b":{"\q":1}}"#,
        #"{"a":1,"b":{"c":01}}"#, #"{"a":1,"b":[01,"\x"]}"#, #"{"a":1,"b":[,]}"#, "{\"a\":1,\"b\":\"\u{1}\"}",
        "{\"a\":1,\"b\":\"\t\n\"}", #"{"a":1,"\u0061":2}"#, #"{"\u0061":2,"a":1}"#, #"{"a":1,"a":"\q"}"#,
        #"{"a":"\q","a":1}"#, #"{"\q":1,"a":1}"#, #"{"a":01}"#, #"{"a":null}"#, #"{"a":[1,{"b":"\q"}]}"#,
        #"{"b":1}"#, "[]", "1", "null",
    ])
    func valuesNothingReadsAreCheckedAsJSONDecoderChecksThem(text: String) {
        expectAgreement(Array(text.utf8))
    }

    @Test func unreadBytesAreNotCheckedAsUTF8() {
        let invalid: [[UInt8]] = [[0xFF], [0xC3, 0x28], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0x80]]
        for sequence in invalid {
            let prefix = Array(#"{"a":1,"b":""#.utf8)
            expectAgreement(prefix + sequence + Array(#""}"#.utf8))
            expectAgreement(Array(#"{"a":1,""#.utf8) + sequence + Array(#"":2}"#.utf8))
            expectAgreement(Array(#"{"a":""#.utf8) + sequence + Array(#""}"#.utf8))
            expectAgreement(Array(#"{"a":1,"b":"#.utf8) + sequence + Array("}".utf8))
        }
    }

    @Test func skipValueReturnsTheExactTextOfTheValue() throws {
        let values = [
            "1", "-0.5e+10", "01", "\"text\"", #""\"\\\u0041\uD83D\uDE00""#, "true", "false", "null", "[]", "{}",
            #"[1, [2, {"x": [ ]}], "s" ,]"#, #"{ "k" : { "l" : [ null ] } , }"#, "\"é 😀\"",
        ]
        for value in values {
            let text = "{ \"before\" : 0 ,\n \"value\" :\t\(value) \r\n, \"after\": [ ] }"
            let bytes = Array(text.utf8)
            let skipped = readerOutcome(bytes) { (reader: inout JSONPullReader) throws(JSONReadError) -> [String] in
                try reader.beginObject()
                var texts: [String] = []
                while try reader.nextKey() != nil {
                    let range = try reader.skipValue()
                    texts.append(String(decoding: bytes[range], as: UTF8.self))
                }
                return texts
            }
            #expect(skipped == .value(["0", value, "[ ]"]), "\(text)")
        }
    }

    @Test func aValueThatFailsToReadCanStillBeSkipped() {
        // As JSONDecoder goes on after `try?` of a value that fails to decode.
        struct Lenient: Decodable {
            let a: String?
            let b: UInt8?
            let c: Int?
            let d: Double?
            let e: Bool?
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: ReadJSON.Key.self)
                a = try? container.decode(String.self, forKey: ReadJSON.Key(stringValue: "a"))
                b = try? container.decode(UInt8.self, forKey: ReadJSON.Key(stringValue: "b"))
                c = try? container.decode(Int.self, forKey: ReadJSON.Key(stringValue: "c"))
                d = try? container.decode(Double.self, forKey: ReadJSON.Key(stringValue: "d"))
                e = try? container.decode(Bool.self, forKey: ReadJSON.Key(stringValue: "e"))
            }
        }
        let text = #"{"a":"\q","b":300,"c":1.5,"d":1e400,"e":"yes"}"#
        #expect((try? JSONDecoder().decode(Lenient.self, from: Data(text.utf8))) != nil)
        let failures = readerOutcome(Array(text.utf8)) { (reader: inout JSONPullReader) throws(JSONReadError) in
            try reader.beginObject()
            var failures = 0
            while let key = try reader.nextKey() {
                let start = reader.byteOffset
                do throws(JSONReadError) {
                    switch key.string {
                    case "a": _ = try reader.readString()
                    case "b": _ = try reader.readInteger(UInt8.self)
                    case "c": _ = try reader.readInteger(Int.self)
                    case "d": _ = try reader.readDouble()
                    default: _ = try reader.readBool()
                    }
                } catch {
                    failures += 1
                    #expect(error.byteOffset >= start)
                    _ = try reader.skipValue()
                }
            }
            return failures
        }
        #expect(failures == .value(5))
    }

    @Test func skipValueWithCheckingValuesChecksWhatTheScannerChecks() {
        let texts = [
            #"{"b":01}"#, #"{"b":1.}"#, #"{"b":-}"#, #"{"b":1.2.3}"#, #"{"b":"\q"}"#, #"{"b":"\uD800"}"#,
            #"{"b":"\u12zz"}"#, "{\"b\":\"\u{1}\"}", #"{"\q":1}"#, #"[1e400, -0, 1E+2, "\u0000", "\uFFFF"]"#,
            #"{"b":[1,{"c":[true,null,"x"]},]}"#, #"{"b":tru}"#,
        ]
        for text in texts {
            let bytes = Array(text.utf8)
            let checked = readerOutcome(bytes) { (reader: inout JSONPullReader) throws(JSONReadError) in
                try reader.skipValue(checkingValues: true)
            }
            let defect = JSONDefectScanner.firstDefect(in: Data(bytes))
            #expect((checked != .refused) == (defect == nil), "\(text): \(defect?.description ?? "no defect")")
        }
        let invalid: [UInt8] = [0x5B, 0x22, 0xC3, 0x28, 0x22, 0x5D]  // ["\xC3("]
        let checked = readerOutcome(invalid) { (reader: inout JSONPullReader) throws(JSONReadError) in
            try reader.skipValue(checkingValues: true)
        }
        #expect(checked == .refused)
    }

    @Test func everyPrefixOfADocumentIsReadOrRefusedAsJSONDecoderDoes() {
        let text = """
            \u{FEFF}{"a": [1, -2.5e-3, "x\\u00e9\\n", true, null, {"b": []}], "c": {"d": "\\uD83D\\uDE00 é"}, \
            "a": 2, "e": [01, "\\q", 1.], "f": 1e400 }
            """
        let bytes = Array(text.utf8)
        for count in 0...bytes.count { expectAgreement(Array(bytes[..<count])) }
    }

    @Test func errorsNameTheirPlace() {
        let outcome: JSONReadError? = Array(#"{"a": [1, 2 3]}"#.utf8).withUnsafeBytes { raw in
            var reader = JSONPullReader(bytes: raw)
            do throws(JSONReadError) {
                _ = try reader.skipValue()
                return nil
            } catch {
                return error
            }
        }
        #expect(outcome?.byteOffset == 12)
        #expect(outcome?.description == "unexpected '3' after an array element (expected ',' or ']') at byte 12")
    }
}
