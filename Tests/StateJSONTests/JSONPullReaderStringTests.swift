import Foundation
import Testing

@testable import StateJSON

/// `body` between double quotes, as bytes.
private func quoted(_ body: [UInt8]) -> [UInt8] {
    [UInt8(ascii: "\"")] + body + [UInt8(ascii: "\"")]
}

/// What the reader makes of `bytes` read as one string.
private func readString(_ bytes: [UInt8]) -> ReadOutcome<String> {
    readerOutcome(bytes) { (reader: inout JSONPullReader) throws(JSONReadError) in try reader.readString() }
}

/// Expects the reader to read the string `body` (between quotes) as JSONDecoder reads it, alone, as an array
/// element and as an object key; a difference in the unicode scalars fails too (String's == would not see one
/// between canonically equivalent strings).
private func expectSameString(_ body: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
    let bytes = quoted(body)
    let shown = String(decoding: body, as: UTF8.self).debugDescription + " \(body)"
    let expected = decoderOutcome(String.self, bytes)
    let actual = readString(bytes)
    #expect(actual == expected, "\(shown)", sourceLocation: sourceLocation)
    if case .value(let expectedText) = expected, case .value(let actualText) = actual {
        #expect(Array(actualText.unicodeScalars) == Array(expectedText.unicodeScalars), sourceLocation: sourceLocation)
    }
    expectAgreement([UInt8(ascii: "[")] + bytes + [UInt8(ascii: "]")], sourceLocation: sourceLocation)
    expectAgreement(Array("{".utf8) + bytes + Array(":1}".utf8), sourceLocation: sourceLocation)
}

@Suite("JSON pull reader: strings and keys as JSONDecoder reads them")
struct JSONPullReaderStringTests {
    @Test(arguments: [
        "", "plain ASCII text longer than eight bytes", "é", "漢字", "😇", "\u{FFFF}", "\u{10FFFF}", "\u{7F}",
        "mixed é and 😇 and plain text over several words",
    ])
    func plainAndUnicodeStringsAreReadAsTheyAre(text: String) {
        expectSameString(Array(text.utf8))
    }

    @Test(arguments: [
        #"\""#, #"\\"#, #"\/"#, #"\b"#, #"\f"#, #"\n"#, #"\r"#, #"\t"#, #"\u0041"#, #"\u00e9"#, #"\u00E9"#,
        #"\u0000"#, #"\u001f"#, #"\u007F"#, #"\u0080"#, #"\u07FF"#, #"\u0800"#, #"\uFFFF"#, #"\uFFFE"#,
        #"\uD83D\uDE00"#, #"\udbff\udfff"#, #"\uD800\uDC00"#, #"a\nb\tc\\d\"e"#, #"x\u00e9y\uD83D\uDE00z"#,
        #"\u0065\u0301"#, "é\\n😇", #"\q"#, #"\x41"#, #"\U0041"#, #"\u"#, #"\u12"#, #"\u12zz"#, #"\u+123"#,
        #"\uD800"#, #"\uDC00"#, #"\uD800x"#, #"\uD800\u0041"#, #"\uD800\uD800"#, #"\uDC00\uD800"#, #"\uD800\n"#,
        #"\uD800\"#, #"\uD800\u"#, #"\uD800\uDC0"#, #"\uD800\uDCzz"#, #"\"#, #"\ "#, "\\é",
    ])
    func escapesAreReadAsJSONDecoderReadsThem(body: String) {
        expectSameString(Array(body.utf8))
    }

    @Test func everyControlCharacterMustBeEscaped() {
        for byte in UInt8(0)..<0x20 {
            expectSameString([UInt8(ascii: "a"), byte, UInt8(ascii: "b")])
            expectSameString([byte])
            expectSameString(Array("long enough for a word".utf8) + [byte])
        }
        expectSameString([0x7F])
    }

    @Test func utf8IsCheckedStrictly() {
        let sequences: [[UInt8]] = [
            [0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x87], [0xF4, 0x8F, 0xBF, 0xBF], [0xEF, 0xBF, 0xBF],
            [0xC3, 0x28], [0xFF], [0xFE], [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xE0, 0x9F, 0xBF],
            [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80],
            [0xF5, 0x80, 0x80, 0x80], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0x80], [0xBF], [0xC3], [0xC3, 0xC3, 0xA9],
            [0xE2, 0x28, 0xA1], [0xF0, 0x28, 0x8C, 0xBC],
        ]
        for sequence in sequences {
            expectSameString(sequence)
            expectSameString(Array("word".utf8) + sequence + Array("more than eight".utf8))
            expectSameString(Array(#"\n"#.utf8) + sequence)
            expectSameString(sequence + Array(#"\u00e9"#.utf8))
        }
    }

    @Test func keysMatchAsJSONDecoderLooksThemUp() throws {
        let cases: [(json: String, name: StaticString)] = [
            (#"{"a":1}"#, "a"), (#"{"\u0061":1}"#, "a"), (#"{"b":1}"#, "a"), (#"{"aa":1}"#, "a"), (#"{"":1}"#, ""),
            (#"{"é":1}"#, "é"), (#"{"e\u0301":1}"#, "é"), ("{\"e\u{301}\":1}", "é"), (#"{"\u00e9":1}"#, "e\u{301}"),
            (#"{"\u212A":1}"#, "K"), ("{\"\u{212A}\":1}", "K"), (#"{"K":1}"#, "\u{212A}"), (#"{"k":1}"#, "K"),
            (#"{"\/":1}"#, "/"), (#"{"a\nb":1}"#, "a\nb"), (#"{"\uD83D\uDE00":1}"#, "😀"), (#"{"Å":1}"#, "\u{212B}"),
            (#"{"b":2,"a":1,"a":3}"#, "a"), (#"{"\u0061":1,"a":3}"#, "a"), (#"{"é":1,"e\u0301":3}"#, "é"),
            (#"{"x":1}"#, "x\u{301}"), (#"{";":1}"#, "\u{37E}"), (#"{"\u037e":1}"#, ";"),
        ]
        for (json, name) in cases {
            let expected = try JSONDecoder().decode([String: Int].self, from: Data(json.utf8))[name.description]
            let found = readerOutcome(Array(json.utf8)) { (reader: inout JSONPullReader) throws(JSONReadError) in
                try reader.beginObject()
                var found: Int?
                while let key = try reader.nextKey() {
                    if found == nil && key.matches(name) && key.matches(name.description) {
                        found = try reader.readInteger()
                    } else {
                        #expect(!key.matches(name.description) || found != nil, "\(json) \(name)")
                        _ = try reader.skipValue()
                    }
                }
                return found
            }
            #expect(found == .value(expected), "\(json) \(name)")
        }
    }

    @Test func aPlainKeyKeepsItsBytesAndAnEscapedOneMakesItsText() {
        let bytes = Array(#"{"plain":1,"esc\u0061ped":2,"é":3}"#.utf8)
        let keys = readerOutcome(bytes) { (reader: inout JSONPullReader) throws(JSONReadError) in
            try reader.beginObject()
            var keys: [String] = []
            while let key = try reader.nextKey() {
                keys.append("\(key.string) \(key.isPlain) \(String(decoding: key.rawBytes, as: UTF8.self))")
                _ = try reader.skipValue()
            }
            return keys
        }
        #expect(keys == .value(["plain true plain", #"escaped false esc\u0061ped"#, "é false é"]))
    }
}
