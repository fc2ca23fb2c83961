import Foundation
import StateStore
import TestSupport
import Testing

@testable import StateJSON

/// Whether JSONDecoder reads every value of `data`.
private func decoderAccepts(_ data: Data) -> Bool {
    (try? JSONDecoder().decode(ReadJSON.self, from: data)) != nil
}

/// The first defect of `text`'s UTF-8 bytes.
private func defect(_ text: String, depthLimit: Int = 512) -> JSONDefect? {
    JSONDefectScanner.firstDefect(in: Data(text.utf8), depthLimit: depthLimit)
}

/// The first defect of `bytes`.
private func defect(bytes: [UInt8]) -> JSONDefect? {
    JSONDefectScanner.firstDefect(in: Data(bytes))
}

/// The duplicate keys of `text`, as "path key" strings for easy comparison.
private func duplicates(_ text: String) -> [String] {
    JSONDefectScanner.duplicateKeys(in: Data(text.utf8)).map { "\($0.path) \($0.key)" }
}

/// The duplicate keys of `data` found by the lean `duplicateKeys` (the load path's) and by the one that checks
/// every value, as "path key" strings.
private func leanAndCheckedDuplicates(_ data: Data) -> (lean: [String], checked: [String]) {
    (
        JSONDefectScanner.duplicateKeys(in: data).map { "\($0.path) \($0.key)" },
        JSONDefectScanner.duplicateKeys(in: data, checkingValues: true).map { "\($0.path) \($0.key)" }
    )
}

/// `count` arrays nested in one another.
private func nestedArrays(_ count: Int) -> String {
    String(repeating: "[", count: count) + String(repeating: "]", count: count)
}

/// `count` objects nested in one another under the key "a", the innermost empty.
private func nestedObjects(_ count: Int) -> String {
    String(repeating: #"{"a":"#, count: count - 1) + "{}" + String(repeating: "}", count: count - 1)
}

/// Whether some object in `data` (which JSONDecoder reads) holds a key twice, by a slow recursive walk that
/// compares keys as the Swift strings JSONDecoder makes of them. Independent of the scanner, for cross-checks.
private func referenceHasDuplicateKey(_ data: Data) -> Bool {
    var bytes = Array(data)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
    var index = 0
    var found = false

    func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }
    func string() -> String {
        let start = index
        index += 1
        while bytes[index] != UInt8(ascii: "\"") { index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1 }
        index += 1
        return (try? JSONDecoder().decode(String.self, from: Data(bytes[start..<index]))) ?? ""
    }
    func value() {
        skipWhitespace()
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            var keys = Set<String>()
            skipWhitespace()
            while bytes[index] != UInt8(ascii: "}") {
                if !keys.insert(string()).inserted { found = true }
                skipWhitespace()
                index += 1  // :
                value()
                skipWhitespace()
                if bytes[index] == UInt8(ascii: ",") { index += 1 }
                skipWhitespace()
            }
            index += 1
        case UInt8(ascii: "["):
            index += 1
            skipWhitespace()
            while bytes[index] != UInt8(ascii: "]") {
                value()
                skipWhitespace()
                if bytes[index] == UInt8(ascii: ",") { index += 1 }
                skipWhitespace()
            }
            index += 1
        case UInt8(ascii: "\""):
            _ = string()
        default:
            while index < bytes.count, !Array(",]} \n\r\t".utf8).contains(bytes[index]) { index += 1 }
        }
    }
    value()
    return found
}

@Suite("JSON defects are named with their place", .heavy)
struct JSONDefectTests {
    // MARK: What JSONDecoder does (the scanner's reference)

    @Test func jsonDecoderAllows512LevelsOfNestingAndNotMore() {
        #expect(decoderAccepts(Data(nestedArrays(512).utf8)))
        #expect(decoderAccepts(Data(nestedObjects(512).utf8)))
        #expect(!decoderAccepts(Data(nestedArrays(513).utf8)))
        #expect(!decoderAccepts(Data(nestedObjects(513).utf8)))
        #expect(defect(nestedArrays(512)) == nil)
        #expect(defect(nestedObjects(512)) == nil)
        #expect(defect(nestedArrays(513))?.kind == .tooDeep(limit: 512))
        #expect(defect(nestedObjects(513))?.kind == .tooDeep(limit: 512))
    }

    @Test func jsonDecoderSkipsAByteOrderMarkKeepsTheFirstOfTwoKeysAndAllowsATrailingComma() throws {
        #expect(
            try JSONDecoder().decode([String: Int].self, from: Data([0xEF, 0xBB, 0xBF] + Array(#"{"a":1}"#.utf8))) == [
                "a": 1
            ])
        #expect(try JSONDecoder().decode([String: Int].self, from: Data(#"{"a":1,"a":2}"#.utf8)) == ["a": 1])
        #expect(try JSONDecoder().decode([String: Int].self, from: Data(#"{"a":1,"\u0061":2}"#.utf8)) == ["a": 1])
        #expect(try JSONDecoder().decode([String: Int].self, from: Data(#"{"K":1,"\u212A":2}"#.utf8)) == ["K": 1])
        #expect(try JSONDecoder().decode([Int].self, from: Data("[1,]".utf8)) == [1])
        #expect(!decoderAccepts(Data([0x22, 0xC3, 0x28, 0x22])), "invalid UTF-8 in a string")
        #expect(!decoderAccepts(Data([0x20, 0xEF, 0xBB, 0xBF, 0x31])), "a byte order mark after whitespace")
        #expect(decoderAccepts(Data([0x31, 0x00])), "two bytes with a NUL are read as UTF-16")
    }

    // MARK: Well-formed documents

    @Test(arguments: [
        "{}", "[]", " \t\r\n{}\n", "0", "-0", "1e10", "1.5E-3", "-12.25e+3", "0.5", "1E05", "true", "false", "null",
        #""text""#, #"{"a":[1,-0,1e10,1.5E-3,0,-1,true,false,null,"x",{},[]]}"#,
        #"["\" \\ \/ \b \f \n \r \t \u00e9 \u00E9 \uD83D\uDE00 \u0000 \uFFFF"]"#,
        #"{"héllo":"wörld 😀 日本語 \#u{7F}","emoji 😀":["ü"]}"#, #"{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}]}"#,
        #"{"x":{"k":1,"j":2},"k":2,"j":[{"k":1}]}"#, "[1,]", #"{"a":1,}"#, "[[1,],{\"b\":[],},]", "[1 ,\n]",
        "{\n  \"projects\" : [\n    {\n      \"id\" : \"a\"\n    }\n  ]\n}",
    ])
    func wellFormedDocumentsHaveNoDefect(_ text: String) {
        #expect(defect(text) == nil)
        #expect(duplicates(text).isEmpty)
        #expect(decoderAccepts(Data(text.utf8)), "JSONDecoder agrees")
    }

    @Test func aByteOrderMarkAtTheStartIsAllowed() {
        #expect(defect(bytes: [0xEF, 0xBB, 0xBF] + Array(#"{"a":[1,2]}"#.utf8)) == nil)
        #expect(defect(bytes: [0xEF, 0xBB, 0xBF, 0x31, 0x0A]) == nil)
        let twice = defect(bytes: [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF, 0x31])
        #expect(twice?.kind == .syntax("unexpected character U+FEFF") && twice?.byteOffset == 3)
        #expect(defect(bytes: [0x20, 0xEF, 0xBB, 0xBF, 0x31])?.byteOffset == 1)
        #expect(defect(bytes: [0xEF, 0xBB, 0xBF])?.kind == .syntax("the file is empty"))
    }

    @Test func nestingExactlyAtTheLimitIsAllowed() {
        #expect(defect(nestedArrays(512)) == nil)
        #expect(defect(nestedObjects(512)) == nil)
        #expect(defect(String(repeating: #"[{"k":"#, count: 256) + "1" + String(repeating: "}]", count: 256)) == nil)
        #expect(defect(#"{"x":[{"y":1}]}"#, depthLimit: 3) == nil)
    }

    // MARK: Syntax errors

    /// A malformed document and the defect expected in it.
    struct SyntaxCase: Sendable, CustomTestStringConvertible {
        let text: String
        let message: String
        let offset: Int
        let line: Int
        let column: Int
        let path: String
        var testDescription: String { text.debugDescription }
    }

    static let syntaxCases: [SyntaxCase] = [
        .init(text: "", message: "the file is empty", offset: 0, line: 1, column: 1, path: ""),
        .init(text: "  \n ", message: "the file holds only whitespace", offset: 4, line: 2, column: 2, path: ""),
        .init(text: #"{"a":1"#, message: "unexpected end of the file", offset: 6, line: 1, column: 7, path: ""),
        .init(text: #"{"a":[1,"#, message: "unexpected end of the file", offset: 8, line: 1, column: 9, path: "a"),
        .init(text: #"["abc"#, message: "unexpected end of the file", offset: 5, line: 1, column: 6, path: "[0]"),
        .init(text: "tru", message: "unexpected end of the file", offset: 3, line: 1, column: 4, path: ""),
        .init(
            text: #"{"a":1 "b":2}"#, message: "expected ',' or '}' after an object member", offset: 7, line: 1,
            column: 8, path: ""),
        .init(
            text: "[1 2]", message: "expected ',' or ']' after an array element", offset: 3, line: 1, column: 4,
            path: ""),
        .init(
            text: "{\"a\":1,\n \"b\" 2}", message: "expected ':' after an object key", offset: 13, line: 2,
            column: 6, path: ""),
        .init(
            text: "{a:1}", message: "expected an object key in double quotes", offset: 1, line: 1, column: 2,
            path: ""),
        .init(
            text: "{,}", message: "expected an object key in double quotes", offset: 1, line: 1, column: 2,
            path: ""),
        .init(text: #"{"a":x}"#, message: "unexpected character 'x'", offset: 5, line: 1, column: 6, path: "a"),
        .init(text: "[,]", message: "unexpected character ','", offset: 1, line: 1, column: 2, path: "[0]"),
        .init(text: "[1,,]", message: "unexpected character ','", offset: 3, line: 1, column: 4, path: "[1]"),
        .init(text: "[\u{1}]", message: "unexpected character U+0001", offset: 1, line: 1, column: 2, path: "[0]"),
        .init(text: "[é]", message: "unexpected character 'é' (U+00E9)", offset: 1, line: 1, column: 2, path: "[0]"),
        .init(text: "trux", message: "unexpected character 'x' in true", offset: 3, line: 1, column: 4, path: ""),
        .init(text: "[nul]", message: "unexpected character ']' in null", offset: 4, line: 1, column: 5, path: "[0]"),
        .init(
            text: "[01]", message: "a number such as 01, with a leading zero, is not valid JSON", offset: 2, line: 1,
            column: 3, path: "[0]"),
        .init(
            text: "[-01]", message: "a number such as 01, with a leading zero, is not valid JSON", offset: 3, line: 1,
            column: 4, path: "[0]"),
        .init(
            text: #"{"n":1.}"#, message: "a number needs a digit after its '.' (such as 1.0, not 1.)", offset: 7,
            line: 1, column: 8, path: "n"),
        .init(text: "[-]", message: "a number needs a digit after '-'", offset: 2, line: 1, column: 3, path: "[0]"),
        .init(text: "[-x]", message: "a number needs a digit after '-'", offset: 2, line: 1, column: 3, path: "[0]"),
        .init(
            text: "[1e]", message: "a number needs a digit in its exponent (such as 1e5, not 1e)", offset: 3, line: 1,
            column: 4, path: "[0]"),
        .init(
            text: "[1E+]", message: "a number needs a digit in its exponent (such as 1e5, not 1e)", offset: 4,
            line: 1, column: 5, path: "[0]"),
        .init(text: "[.5]", message: "unexpected character '.'", offset: 1, line: 1, column: 2, path: "[0]"),
        .init(text: "[+1]", message: "unexpected character '+'", offset: 1, line: 1, column: 2, path: "[0]"),
        .init(
            text: "[1.5.5]", message: "expected ',' or ']' after an array element", offset: 4, line: 1, column: 5,
            path: ""),
        .init(
            text: "[\"a\u{1}b\"]", message: "control character U+0001 in a string", offset: 3, line: 1, column: 4,
            path: "[0]"),
        .init(
            text: "{\"k\":\"a\nb\"}", message: "control character U+000A in a string", offset: 7, line: 1,
            column: 8, path: "k"),
        .init(
            text: "{\"a\tb\":1}", message: "control character U+0009 in a string", offset: 3, line: 1, column: 4,
            path: ""),
        .init(text: #"{"k":"\q"}"#, message: #"invalid escape \q"#, offset: 6, line: 1, column: 7, path: "k"),
        .init(text: #"["\x41"]"#, message: #"invalid escape \x"#, offset: 2, line: 1, column: 3, path: "[0]"),
        .init(
            text: #"["\u12G4"]"#, message: #"invalid escape \u12G: \u needs four hexadecimal digits"#, offset: 2,
            line: 1, column: 3, path: "[0]"),
        .init(
            text: #"["\u+123"]"#, message: #"invalid escape \u+: \u needs four hexadecimal digits"#, offset: 2,
            line: 1, column: 3, path: "[0]"),
        .init(
            text: #"["ok","\uD800"]"#, message: #"unpaired UTF-16 surrogate \uD800 in a string"#, offset: 7, line: 1,
            column: 8, path: "[1]"),
        .init(
            text: #"["\udc00"]"#, message: #"unpaired UTF-16 surrogate \udc00 in a string"#, offset: 2, line: 1,
            column: 3, path: "[0]"),
        .init(
            text: #"["\uD83D\u0041"]"#, message: #"unpaired UTF-16 surrogate \uD83D in a string"#, offset: 2,
            line: 1, column: 3, path: "[0]"),
        .init(
            text: #"["\uD83Dx"]"#, message: #"unpaired UTF-16 surrogate \uD83D in a string"#, offset: 2, line: 1,
            column: 3, path: "[0]"),
        .init(text: "[1] x", message: "text after the JSON value", offset: 4, line: 1, column: 5, path: ""),
        .init(text: "[1]]", message: "text after the JSON value", offset: 3, line: 1, column: 4, path: ""),
        .init(text: "{} {}", message: "text after the JSON value", offset: 3, line: 1, column: 4, path: ""),
        .init(
            text: "{\n  \"a\": [\n    1,\n    oops\n  ]\n}", message: "unexpected character 'o'", offset: 22,
            line: 4, column: 5, path: "a[1]"),
        .init(
            text: "{\"p\":[{\"q\":{\"r\":[0,1,{\"s\":tru}]}}]}", message: "unexpected character '}' in true",
            offset: 29, line: 1, column: 30, path: "p[0].q.r[2].s"),
        .init(
            text: #"{"a\"b":{"c\u0041":[1 2]}}"#, message: "expected ',' or ']' after an array element", offset: 22,
            line: 1, column: 23, path: #"a"b.cA"#),
    ]

    @Test(arguments: syntaxCases)
    func syntaxErrorsAreNamedWithTheirPlace(_ example: SyntaxCase) {
        let found = defect(example.text)
        #expect(found?.kind == .syntax(example.message))
        #expect(found?.byteOffset == example.offset)
        #expect(found?.line == example.line)
        #expect(found?.column == example.column)
        #expect(found?.path == example.path)
        #expect(!decoderAccepts(Data(example.text.utf8)), "JSONDecoder rejects it too")
    }

    @Test func textInAnotherEncodingIsNamed() {
        let littleEndian: [UInt8] = [0xFF, 0xFE] + "[1]".utf8.flatMap { [$0, 0] }
        #expect(decoderAccepts(Data(littleEndian)))
        #expect(defect(bytes: littleEndian)?.kind == .syntax("UTF-16 (little-endian) text; a state file must be UTF-8"))
        let bigEndian: [UInt8] = "[1]".utf8.flatMap { [0, $0] }
        #expect(decoderAccepts(Data(bigEndian)))
        #expect(defect(bytes: bigEndian)?.kind == .syntax("UTF-16 (big-endian) text; a state file must be UTF-8"))
        #expect(
            defect(bytes: [0x31, 0x00])?.kind == .syntax("UTF-16 (little-endian) text; a state file must be UTF-8"))
        #expect(
            defect(bytes: [0x31, 0x00, 0x00, 0x00])?.kind
                == .syntax("UTF-32 (little-endian) text; a state file must be UTF-8"))
        #expect(defect(bytes: [0, 0, 0, 0])?.kind == .syntax("unexpected character U+0000"), "zeros are not a text")
        #expect(defect(bytes: [0x31, 0x00, 0x00])?.kind == .syntax("text after the JSON value"))
    }

    // MARK: Invalid UTF-8

    /// Bytes that are not UTF-8 and the (0-based) offset of the sequence's first byte.
    static let invalidUTF8Cases: [(bytes: [UInt8], offset: Int, path: String)] = [
        (Array(#"[""#.utf8) + [0xC3, 0x28] + Array(#""]"#.utf8), 2, "[0]"),
        (Array(#"["ab"#.utf8) + [0xFF] + Array(#""]"#.utf8), 4, "[0]"),
        (Array(#"{"k":""#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8), 6, "k"),
        (Array(#"[""#.utf8) + [0xF0, 0x9F, 0x98] + Array(#""]"#.utf8), 2, "[0]"),
        (Array(#"[""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""]"#.utf8), 2, "[0]"),
        (Array(#"[""#.utf8) + [0xF4, 0x90, 0x80, 0x80] + Array(#""]"#.utf8), 2, "[0]"),
        (Array(#"[""#.utf8) + [0xE0, 0x80, 0x80] + Array(#""]"#.utf8), 2, "[0]"),
        (Array(#"["é"#.utf8) + [0x80] + Array(#""]"#.utf8), 4, "[0]"),
        (Array(#"{""#.utf8) + [0xC3, 0x28] + Array(#"":1}"#.utf8), 2, ""),
        (Array(#"{"a":{"#.utf8) + [0xFF] + Array("}}".utf8), 6, "a"),
        (Array("[".utf8) + [0xFF] + Array("]".utf8), 1, "[0]"),
        (Array("[1,".utf8) + [0xC3, 0x28] + Array("]".utf8), 3, "[1]"),
        (Array("[1] ".utf8) + [0xFE], 4, ""),
        ([0xC0, 0xAF], 0, ""),
        (Array(#""ab"#.utf8) + [0xE2, 0x82], 3, ""),
        (Array(#"["\"#.utf8) + [0xFF] + Array(#""]"#.utf8), 3, "[0]"),
        (Array(#"["\u00"#.utf8) + [0xFF] + Array(#"0"]"#.utf8), 6, "[0]"),
    ]

    @Test(arguments: 0..<invalidUTF8Cases.count)
    func invalidUTF8IsNamedAtItsFirstByte(_ number: Int) {
        let example = Self.invalidUTF8Cases[number]
        let found = defect(bytes: example.bytes)
        #expect(found?.kind == .invalidUTF8)
        #expect(found?.byteOffset == example.offset)
        #expect(found?.path == example.path)
        #expect(!decoderAccepts(Data(example.bytes)), "JSONDecoder rejects it too")
    }

    @Test func validUTF8OfEveryLengthIsAllowed() {
        let text = "[\"\u{7F} \u{80} \u{7FF} \u{800} \u{D7FF} \u{E000} \u{FFFF} \u{10000} \u{10FFFF}\"]"
        #expect(defect(text) == nil)
        #expect(decoderAccepts(Data(text.utf8)))
    }

    @Test func everyPlaceInALongStringIsChecked() {
        // Strings are scanned eight bytes at a time; a defect must be found at any offset within a word.
        for position in 0..<40 {
            var bytes = Array(#"{"key":""#.utf8) + Array(repeating: UInt8(ascii: "x"), count: 40) + Array(#""}"#.utf8)
            let offset = 8 + position
            bytes[offset] = 0x01
            #expect(defect(bytes: bytes)?.byteOffset == offset)
            #expect(defect(bytes: bytes)?.kind == .syntax("control character U+0001 in a string"))
            bytes[offset] = 0xFF
            #expect(defect(bytes: bytes)?.kind == .invalidUTF8)
            #expect(defect(bytes: bytes)?.byteOffset == offset)
            bytes[offset] = 0x7F
            #expect(defect(bytes: bytes) == nil)
            bytes[offset] = UInt8(ascii: "\\")
            let escaped = position < 39 ? #"invalid escape \x"# : "unexpected end of the file"
            #expect(defect(bytes: bytes)?.kind == .syntax(escaped))
            bytes[offset] = UInt8(ascii: "\"")
            #expect(defect(bytes: bytes)?.byteOffset == offset + 1, "the string ends early")
            bytes.replaceSubrange(offset...offset, with: [0xC3, 0xA9])
            #expect(defect(bytes: bytes) == nil)
            bytes.replaceSubrange(offset...offset + 1, with: Array(#"\n"#.utf8))
            #expect(defect(bytes: bytes) == nil)
        }
    }

    // MARK: Nesting

    @Test func nestingOneLevelTooDeepIsNamedWithThePath() {
        let arrays = defect(nestedArrays(513))
        #expect(arrays?.kind == .tooDeep(limit: 512))
        #expect(arrays?.byteOffset == 512)
        #expect(arrays?.line == 1 && arrays?.column == 513)
        #expect(arrays?.path == String(repeating: "[0]", count: 512))

        let objects = defect(nestedObjects(513))
        #expect(objects?.kind == .tooDeep(limit: 512))
        #expect(objects?.byteOffset == 512 * 5)
        #expect(objects?.path == Array(repeating: "a", count: 512).joined(separator: "."))

        let small = defect(#"{"x":[{"y":1},{"y":[2]}]}"#, depthLimit: 3)
        #expect(small?.kind == .tooDeep(limit: 3))
        #expect(small?.path == "x[1].y")
        #expect(small?.byteOffset == 19)
        #expect(defect("[]", depthLimit: 0)?.path == "")
    }

    @Test func a100000DeepDocumentDoesNotOverflowTheStack() {
        let arrays = Data(nestedArrays(100_000).utf8)
        #expect(JSONDefectScanner.firstDefect(in: arrays)?.kind == .tooDeep(limit: 512))
        #expect(JSONDefectScanner.firstDefect(in: arrays, depthLimit: 200_000) == nil)
        #expect(JSONDefectScanner.duplicateKeys(in: arrays, depthLimit: 200_000).isEmpty)
        let unclosed = Data(String(repeating: "[", count: 100_000).utf8)
        let found = JSONDefectScanner.firstDefect(in: unclosed, depthLimit: 200_000)
        #expect(found?.kind == .syntax("unexpected end of the file") && found?.byteOffset == 100_000)
        #expect(found.map { $0.description.count < 200 } == true, "the long path is shortened")
        let objects = Data((nestedObjects(100_000)).utf8)
        #expect(JSONDefectScanner.firstDefect(in: objects, depthLimit: 200_000) == nil)
        let repeated = String(repeating: #"{"a":1,"a":"#, count: 1_000) + "0" + String(repeating: "}", count: 1_000)
        #expect(JSONDefectScanner.duplicateKeys(in: Data(repeated.utf8), depthLimit: 2_000).count == 1_000)
    }

    // MARK: Duplicate keys

    @Test func aDuplicateKeyAtTheRootIsNamed() {
        let found = defect(#"{"a":1,"b":2,"a":3}"#)
        #expect(found?.kind == .duplicateKey("a"))
        #expect(found?.byteOffset == 13)
        #expect(found?.path == "")
        #expect(found?.description == #"duplicate key "a" in the root (line 1, column 14)"#)
        #expect(duplicates(#"{"a":1,"b":2,"a":3}"#) == [" a"])
    }

    @Test func aNestedDuplicateKeyIsNamedWithThePathOfItsObject() {
        let text = #"{"projects":[{"id":"a"},{"id":"b","name":"x","name":"y"}]}"#
        let found = defect(text)
        #expect(found?.kind == .duplicateKey("name"))
        #expect(found?.path == "projects[1]")
        #expect(found?.byteOffset == 45)
        #expect(found?.description == #"duplicate key "name" in projects[1] (line 1, column 46)"#)
        #expect(duplicates(text) == ["projects[1] name"])
    }

    @Test(arguments: [
        (#"{"a":1,"\u0061":2}"#, "a"), (#"{"\u0061":1,"a":2}"#, "a"), (#"{"\n":1,"\u000A":2}"#, "\n"),
        (#"{"a\"b":1,"a\u0022b":2}"#, "a\"b"), (#"{"\/":1,"/":2}"#, "/"), (#"{"😀":1,"\uD83D\uDE00":2}"#, "😀"),
        (#"{"é":1,"e\u0301":2}"#, "e\u{301}"), (#"{"K":1,"\u212A":2}"#, "\u{212A}"), (#"{"\u212A":1,"K":2}"#, "K"),
        (#"{"é":1,"b":2,"é":3}"#, "é"), (#"{"":1,"":2}"#, ""),
    ])
    func keysAreComparedAfterUnescapingAsJSONDecoderComparesThem(_ text: String, _ key: String) {
        #expect(defect(text)?.kind == .duplicateKey(key))
        let decoded = try? JSONDecoder().decode([String: Int].self, from: Data(text.utf8))
        #expect(decoded?[key] == 1, "JSONDecoder sees one key and keeps its first value")
    }

    @Test func keysThatDifferAreNotDuplicates() {
        #expect(defect(#"{"a":1,"A":2,"a ":3,"\u0062":4,"é":5,"e":6,"ë":7}"#) == nil)
        #expect(defect(#"{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}],"c":{"b":1}}"#) == nil)
        #expect(defect(#"{"x":{"k":1,"\u006a":2},"k":2,"j":[{"k":1,"j":2}]}"#) == nil)
    }

    @Test func manyKeysInOneObject() {
        let keys = (0..<1_000).map { #""k\#($0)":\#($0)"# }
        #expect(defect("{" + keys.joined(separator: ",") + "}") == nil)
        let withDuplicate = "{" + keys.joined(separator: ",") + #","k500":0}"#
        let found = defect(withDuplicate)
        #expect(found?.kind == .duplicateKey("k500"))
        #expect(found?.byteOffset == withDuplicate.utf8.count - 9)
        #expect(duplicates(withDuplicate) == [" k500"])
        let escapedDuplicate = "{" + keys.joined(separator: ",") + #","\u006b999":0}"#
        #expect(defect(escapedDuplicate)?.kind == .duplicateKey("k999"))
        let nonASCIIDuplicate = "{" + keys.joined(separator: ",") + #","é":1,"k7":0}"#
        #expect(defect(nonASCIIDuplicate)?.kind == .duplicateKey("k7"))
        // Around the point where an object's keys move from a list to a hash set.
        for count in 14...19 {
            let small = (0..<count).map { #""k\#($0)":0"# }
            #expect(defect("{" + small.joined(separator: ",") + "}") == nil)
            for repeated in [0, count / 2, count - 1] {
                #expect(
                    defect("{" + small.joined(separator: ",") + #","k\#(repeated)":0}"#)?.kind
                        == .duplicateKey("k\(repeated)"))
            }
        }
    }

    @Test func duplicateKeysListsEveryOneInDocumentOrder() {
        let text =
            #"{"a":1,"a":2,"b":{"c":1,"c":2,"c":3},"b":0,"d":[{"e":1,"\u0065":2}],"a":3,"f":{"g":{"h":1,"h":2}}}"#
        #expect(duplicates(text) == [" a", "b c", " b", "d[0] e", "f.g h"])
        #expect(defect(text)?.kind == .duplicateKey("a"), "firstDefect names the first")
        let nonASCII = #"{"é":1,"e\u0301":2,"é":3,"x":0,"x":1}"#
        #expect(duplicates(nonASCII) == [" e\u{301}", " x"])
    }

    @Test func duplicateKeysStopsAtTheFirstOtherDefect() {
        #expect(duplicates(#"{"a":1,"a":2,"b":x,"c":1,"c":2}"#) == [" a"])
        let checked = JSONDefectScanner.duplicateKeys(in: Data(#"{"a":1,"b":"\q","a":2}"#.utf8), checkingValues: true)
        #expect(checked.isEmpty, "checking values, it stops at the invalid escape")
        #expect(duplicates(#"{"a":1,"b":"\q","a":2}"#) == [" a"], "the lean scan does not look into value strings")
        #expect(duplicates("").isEmpty)
        #expect(defect(#"{"a":"\q","a":2}"#)?.kind == .syntax(#"invalid escape \q"#), "the first in document order")
        #expect(defect(#"{"a":1,"a":"\q"}"#)?.kind == .duplicateKey("a"), "the first in document order")
    }

    @Test func theLeanDuplicateScanStopsSafelyOnMalformedInput() {
        // Each is malformed; none holds a key twice before the point where the scan must stop.
        let malformed = [
            #"{"a":"x"#, #"{"a":"x\"#, #"{"a":"x\""#, #"{"a":"\"#, #"{"a":tru"a":1}"#, #"{"a":1"a":2}"#,
            #"{"a":"\u00"a":2}"#, #"{"a":"x"y","a":2}"#, #"{"a" 1,"a":2}"#, #"{"a":1 "a":2}"#, #"{"a":[1 2],"a":3}"#,
            #"{"a":x,"a":2}"#, #"{"a":{"b":1],"a":2}"#, #"[{"a":1},"a":2]"#, #"{"a":1,"b"#, #"{"a":1,"a"#,
            #"{"a":1,"a\"#, #"{"\q":1,"\q":2}"#, #"{,"a":1,"a":2}"#, #"{"a":-,"b":2}"#, "{\"a\":\"x\u{1}\",\"b\":2",
            "\"", "-", "t", "[", "{", "{\"", "}", "]", "[1,]]", #""\"#,
        ]
        for text in malformed {
            let data = Data(text.utf8)
            #expect(!decoderAccepts(data), "\(text) is malformed")
            #expect(JSONDefectScanner.firstDefect(in: data) != nil, "\(text) is named by firstDefect")
            #expect(duplicates(text).isEmpty, "\(text)")
        }
        let invalidUTF8 = Data(Array(#"{"a":""#.utf8) + [0xFF, 0xC3] + Array(#"","b":1}"#.utf8))
        #expect(JSONDefectScanner.duplicateKeys(in: invalidUTF8).isEmpty)
        #expect(JSONDefectScanner.duplicateKeys(in: Data(String(repeating: "[", count: 100_000).utf8)).isEmpty)
        // Every prefix of a document without duplicate keys (all but the whole document malformed).
        let document = Array(Self.crossCheckDocument.utf8)
        for count in 0..<document.count {
            #expect(JSONDefectScanner.duplicateKeys(in: Data(document[..<count])).isEmpty, "prefix of \(count) bytes")
        }
    }

    // MARK: Descriptions

    @Test func descriptionsNameTheDefectAndItsPlace() {
        // Invalid UTF-8 at byte 1,234: line 3 starts at byte 1,228.
        let bytes =
            Array("{}\n".utf8) + Array(repeating: 0x20, count: 1_224) + [0x0A] + Array(repeating: 0x20, count: 6) + [
                0xFF
            ]
        let invalid = defect(bytes: bytes)
        #expect(invalid?.description == "invalid UTF-8 at byte 1,234 (line 3, column 7)")
        #expect(
            defect(bytes: Array(#"{"title":"ab"#.utf8) + [0xFF, 0x22, 0x7D])?.description
                == "invalid UTF-8 at byte 12 in title (line 1, column 13)")
        let deep = defect(nestedArrays(513))?.description ?? ""
        #expect(deep.hasPrefix("JSON nested deeper than 512 levels at [0][0]"))
        #expect(deep.hasSuffix("[0][0] (line 1, column 513)"))
        #expect(deep.contains("..."))
        #expect(deep.count < 200)
        #expect(
            defect("[]", depthLimit: 0)?.description
                == "JSON nested deeper than 0 levels at the root (line 1, column 1)")
        #expect(
            defect(#"{"a":[1 2]}"#)?.description == "expected ',' or ']' after an array element in a (line 1, column 9)"
        )
        #expect(defect("[1] x")?.description == "text after the JSON value (line 1, column 5)")
        #expect(
            defect("{\"a\":1,\"a\\n\":2,\"a\\n\":3}")?.description
                == #"duplicate key "a\n" in the root (line 1, column 16)"#)
        #expect(JSONDefect.grouped(0) == "0")
        #expect(JSONDefect.grouped(999) == "999")
        #expect(JSONDefect.grouped(1_000) == "1,000")
        #expect(JSONDefect.grouped(1_234_567) == "1,234,567")
        #expect(JSONDefect.abbreviated(String(repeating: "x", count: 125)).count == 125)
        #expect(
            JSONDefect.abbreviated(
                String(repeating: "x", count: 60) + String(repeating: "y", count: 100)
                    + String(repeating: "z", count: 60)) == String(repeating: "x", count: 60) + "..."
                + String(repeating: "z", count: 60))
    }

    // MARK: Agreement with JSONDecoder

    /// A document that exercises most of the grammar: every kind of value, escapes, surrogate pairs, multi-byte
    /// characters, nesting, whitespace. Exponents have one digit, so that no mutation makes a number too large or
    /// too small for a Double (which is not a syntax matter).
    static let crossCheckDocument = """
        {"version":4,"minReaderVersion":3,"projects":[{"id":"alpha","name":"Zoë \\u00e9 \\uD83D\\uDE00 日本",
         "order":-12,"ratio":0.5,"scale":1e5,"tiny":1.5E-3,"pinned":true,"hidden":false,"note":null,
         "panes":[{"title":"one\\ttab \\"q\\" \\\\ \\/","width":80},{"title":"two","width":[1,2,[]]},{}],
         "tags":["x","y"]},{"id":"bravo","extra":{"deep":{"deeper":[0,-0,1.25e-2]}}}]}
        """

    @Test func randomMutationsAreDefectiveExactlyWhenJSONDecoderDisagrees() {
        let original = Array(Self.crossCheckDocument.utf8)
        #expect(JSONDefectScanner.firstDefect(in: Data(original)) == nil)
        #expect(decoderAccepts(Data(original)))
        let interesting =
            Array(#""\{}[],:01-.eEu +/"#.utf8) + [0x0A, 0x00, 0x1F, 0x7F, 0x80, 0xBF, 0xC3, 0xE2, 0xED, 0xF0, 0xFF]
        var generator = SplitMix64(seed: 20_240_501)
        var accepted = 0
        var withDuplicates = 0
        for round in 0..<200 {
            var bytes = original
            let position = Int(generator.next() % UInt64(bytes.count))
            let byte =
                generator.next() % 2 == 0
                ? interesting[Int(generator.next() % UInt64(interesting.count))]
                : UInt8(truncatingIfNeeded: generator.next())
            switch generator.next() % 3 {
            case 0: bytes[position] = byte == bytes[position] ? byte ^ 0x01 : byte
            case 1: bytes.insert(byte, at: position)
            default: bytes.remove(at: position)
            }
            let data = Data(bytes)
            let decoded = decoderAccepts(data)
            let duplicated = decoded && referenceHasDuplicateKey(data)
            let found = JSONDefectScanner.firstDefect(in: data)
            #expect(
                (found == nil) == (decoded && !duplicated),
                "round \(round): \(String(decoding: bytes, as: UTF8.self).debugDescription) JSONDecoder \(decoded), duplicate \(duplicated), scanner \(found?.description ?? "nil")"
            )
            if case .duplicateKey(let key) = found?.kind {
                #expect(duplicated)
                #expect(JSONDefectScanner.duplicateKeys(in: data).first?.key == key)
            }
            let (lean, checked) = leanAndCheckedDuplicates(data)
            if decoded {
                #expect(lean == checked, "round \(round): lean and checking scans agree on what JSONDecoder reads")
            } else {
                #expect(lean.isEmpty, "round \(round): no duplicate in a malformed variant of a document without any")
            }
            if decoded { accepted += 1 }
            if duplicated { withDuplicates += 1 }
        }
        #expect(accepted > 10 && accepted < 190, "both outcomes are exercised (\(accepted) accepted)")
    }

    @Test func randomKeyEditsAreDuplicatesExactlyWhenAReferenceFindsOne() {
        // Objects with keys k0…k4 (one of them escaped, one not ASCII); each variant renames a few keys.
        let original = Array(
            #"{"k0":1,"k1":{"k0":[{"k2":0,"k3":1}],"k\u0031":2},"k2":[{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4}],"k3":{"é":1,"k4":{}}}"#
                .utf8)
        #expect(JSONDefectScanner.firstDefect(in: Data(original)) == nil)
        let keyDigits = original.indices.dropFirst().dropLast().filter {
            original[$0 - 1] == UInt8(ascii: "k") && original[$0 + 1] == 0x22
        }
        var generator = SplitMix64(seed: 7)
        var withDuplicates = 0
        for round in 0..<100 {
            var bytes = original
            for _ in 0..<(1 + generator.next() % 3) {
                let position = keyDigits[Int(generator.next() % UInt64(keyDigits.count))]
                bytes[position] = UInt8(ascii: "0") + UInt8(generator.next() % 5)
            }
            if generator.next() % 4 == 0, let kelvin = bytes.firstIndex(of: UInt8(ascii: "k")) {
                bytes.replaceSubrange(kelvin...kelvin, with: Array(#"\u212A"#.utf8))  // K, not k: a new key
            }
            if generator.next() % 4 == 0, let accent = bytes.firstIndex(of: 0xC3) {
                bytes.replaceSubrange(accent...accent + 1, with: Array(#"e\u0301"#.utf8))  // é, the same key
            }
            let data = Data(bytes)
            let duplicated = referenceHasDuplicateKey(data)
            let found = JSONDefectScanner.firstDefect(in: data)
            let listed = JSONDefectScanner.duplicateKeys(in: data)
            #expect(decoderAccepts(data))
            #expect(
                (found != nil) == duplicated,
                "round \(round): \(String(decoding: bytes, as: UTF8.self)) scanner \(found?.description ?? "nil")")
            #expect(listed.isEmpty == !duplicated)
            #expect(listed.map { "\($0.path) \($0.key)" } == leanAndCheckedDuplicates(data).checked, "round \(round)")
            if case .duplicateKey(let key) = found?.kind { #expect(listed.first?.key == key) }
            if duplicated { withDuplicates += 1 }
        }
        #expect(withDuplicates > 20 && withDuplicates < 95, "both outcomes are exercised (\(withDuplicates))")
    }
}
