import Foundation
import TestSupport
import Testing

@testable import StateJSON

/// Random JSON documents, mostly well-formed, with the quirks JSONDecoder has (trailing commas, repeated and
/// escaped keys, canonically equivalent keys, whitespace, a byte order mark) and now and then a value JSONDecoder
/// refuses to read.
private struct DocumentGenerator {
    /// The random source.
    var random: SplitMix64

    /// Keys, "a" (read by `OnlyA`) the most often, with escaped and canonically equivalent spellings.
    static let keys = [
        "a", "a", "a", "b", "c", #"\u0061"#, "é", #"e\u0301"#, #"\u00e9"#, #"\u212A"#, "K", "a key with spaces", "",
    ]

    /// Valid pieces of string text.
    static let stringPieces: [[UInt8]] = [
        "x", "hello", " ", "é", "😀", "漢字", #"\n"#, #"\""#, #"\\"#, #"\/"#, #"\b\f\r\t"#, #"\u0041"#, #"\u00e9"#,
        #"\uD83D\uDE00"#, #"\u0000"#, #"\uFFFF"#, "\u{7F}", "a longer run of plain ASCII text",
    ].map { Array($0.utf8) }

    /// Pieces of string text that JSONDecoder refuses to read.
    static let brokenStringPieces: [[UInt8]] = [
        [0x01], [0x0A], Array(#"\q"#.utf8), Array(#"\uD800"#.utf8), Array(#"\uDC00x"#.utf8), Array(#"\u12zz"#.utf8),
        [0xFF], [0xC3, 0x28], [0xED, 0xA0, 0x80], [0xE2, 0x82],
    ]

    /// Numbers, valid for JSONDecoder's Double.
    static let numbers = [
        "0", "-0", "1", "-1", "0.5", "1e2", "-1.25e-3", "123456789.123456789e12", "5e-324", "1.7976931348623157e308",
        "9007199254740993", "-0.0e+00", "1E+2",
    ]

    /// Numbers JSONDecoder refuses to read as a Double.
    static let brokenNumbers = ["01", "1.", "-", "1e", "1.2.3", "1e400", "1e-400", "-+1", "1e+"]

    /// Whitespace, or nothing.
    mutating func whitespace(into output: inout [UInt8]) {
        guard Int.random(in: 0..<3, using: &random) == 0 else { return }
        for _ in 0..<Int.random(in: 1...2, using: &random) {
            output.append([0x20, 0x09, 0x0A, 0x0D].randomElement(using: &random)!)
        }
    }

    /// A document: a value (an object, most often) with whitespace around it and now and then a byte order mark.
    mutating func document() -> [UInt8] {
        var output: [UInt8] = Int.random(in: 0..<10, using: &random) == 0 ? [0xEF, 0xBB, 0xBF] : []
        whitespace(into: &output)
        if Int.random(in: 0..<5, using: &random) == 0 {
            value(depth: 0, into: &output)
        } else {
            object(depth: 0, into: &output)
        }
        whitespace(into: &output)
        return output
    }

    /// Any value.
    mutating func value(depth: Int, into output: inout [UInt8]) {
        switch Int.random(in: 0..<(depth >= 4 ? 4 : 6), using: &random) {
        case 0: string(into: &output)
        case 1: number(into: &output)
        case 2: output += Array(["true", "false", "null"].randomElement(using: &random)!.utf8)
        case 3: string(into: &output)
        case 4: object(depth: depth + 1, into: &output)
        default: array(depth: depth + 1, into: &output)
        }
    }

    /// An object of up to four members.
    mutating func object(depth: Int, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "{"))
        whitespace(into: &output)
        let count = Int.random(in: 0...4, using: &random)
        for index in 0..<count {
            output.append(UInt8(ascii: "\""))
            output += Array(Self.keys.randomElement(using: &random)!.utf8)
            output.append(UInt8(ascii: "\""))
            whitespace(into: &output)
            output.append(UInt8(ascii: ":"))
            whitespace(into: &output)
            value(depth: depth, into: &output)
            whitespace(into: &output)
            if index < count - 1 || Int.random(in: 0..<10, using: &random) == 0 && count > 0 {
                output.append(UInt8(ascii: ","))
                whitespace(into: &output)
            }
        }
        output.append(UInt8(ascii: "}"))
    }

    /// An array of up to four elements.
    mutating func array(depth: Int, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "["))
        whitespace(into: &output)
        let count = Int.random(in: 0...4, using: &random)
        for index in 0..<count {
            value(depth: depth, into: &output)
            whitespace(into: &output)
            if index < count - 1 || Int.random(in: 0..<10, using: &random) == 0 && count > 0 {
                output.append(UInt8(ascii: ","))
                whitespace(into: &output)
            }
        }
        output.append(UInt8(ascii: "]"))
    }

    /// A string of up to four pieces, now and then a broken one.
    mutating func string(into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            if Int.random(in: 0..<40, using: &random) == 0 {
                output += Self.brokenStringPieces.randomElement(using: &random)!
            } else {
                output += Self.stringPieces.randomElement(using: &random)!
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// A number, now and then one JSONDecoder refuses as a Double.
    mutating func number(into output: inout [UInt8]) {
        let text: String
        switch Int.random(in: 0..<40, using: &random) {
        case 0: text = Self.brokenNumbers.randomElement(using: &random)!
        case 1..<20: text = Self.numbers.randomElement(using: &random)!
        case 20..<30: text = "\(Int64.random(in: -1 << 60...1 << 60, using: &random))"
        default:
            let double = Double(bitPattern: random.next())
            text = double.isFinite ? "\(double)" : "0.25"
        }
        output += Array(text.utf8)
    }

    /// `document` changed by one or two random edits: a byte dropped, added or replaced, or the end cut off.
    mutating func mutated(_ document: [UInt8]) -> [UInt8] {
        var bytes = document
        let interesting =
            Array(#"{}[],:"\01-.eE+tfnua /"#.utf8) + [0x20, 0x0A, 0xFF, 0xC3, 0xA9, 0x00, 0x01, 0xEF, 0xBB]
        for _ in 0..<Int.random(in: 1...2, using: &random) {
            let index = Int.random(in: 0...bytes.count, using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0: bytes.removeSubrange(index...)
            case 1: if index < bytes.count { bytes.remove(at: index) }
            case 2: bytes.insert(interesting.randomElement(using: &random)!, at: index)
            default: if index < bytes.count { bytes[index] = interesting.randomElement(using: &random)! }
            }
        }
        return bytes
    }
}

@Suite("JSON pull reader: random documents as JSONDecoder reads them", .heavy)
struct JSONPullReaderRandomTests {
    @Test func randomDocumentsAndTheirMutationsAreReadAsJSONDecoderReadsThem() {
        var generator = DocumentGenerator(random: SplitMix64(seed: 0x9A11_7EAD))
        var accepted = 0
        var refused = 0
        for _ in 0..<1000 {
            let document = generator.document()
            for bytes in [document, generator.mutated(document), generator.mutated(document)] {
                expectAgreement(bytes)
                Self.expectCheckedSkipAgreesWithTheScanner(bytes)
                if decoderOutcome(ReadJSON.self, bytes) == .refused { refused += 1 } else { accepted += 1 }
            }
            // The root value's range is the document without its whitespace and mark.
            let range = readerOutcome(document) { (reader: inout JSONPullReader) throws(JSONReadError) in
                try reader.skipValue()
            }
            var start = document.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            var end = document.count
            while start < end && [0x20, 0x09, 0x0A, 0x0D].contains(document[start]) { start += 1 }
            while end > start && [0x20, 0x09, 0x0A, 0x0D].contains(document[end - 1]) { end -= 1 }
            #expect(range == .value(start..<end), "\(String(decoding: document, as: UTF8.self).debugDescription)")
        }
        // Both outcomes are well represented, so the comparison means something either way.
        #expect(accepted > 1000 && refused > 1000, "accepted \(accepted), refused \(refused)")
    }

    /// Expects `skipValue(checkingValues: true)` to accept `bytes` exactly when `JSONDefectScanner`, which checks
    /// every value, finds no defect (when its first defect is not a repeated key, which the reader leaves to its
    /// caller).
    private static func expectCheckedSkipAgreesWithTheScanner(_ bytes: [UInt8]) {
        let defect = JSONDefectScanner.firstDefect(in: Data(bytes))
        if case .duplicateKey = defect?.kind { return }
        let checked = readerOutcome(bytes) { (reader: inout JSONPullReader) throws(JSONReadError) in
            try reader.skipValue(checkingValues: true)
        }
        #expect(
            (checked != .refused) == (defect == nil),
            "\(String(decoding: bytes, as: UTF8.self).debugDescription): \(defect?.description ?? "no defect")")
    }
}
