import Foundation
import TestSupport
import Testing

@testable import StateJSON

/// A number type both JSONDecoder and the reader read, compared through a common description (the bits, for
/// floating point).
private struct NumberType {
    /// The type's name.
    let name: String
    /// What JSONDecoder makes of the bytes.
    let decoded: ([UInt8]) -> ReadOutcome<String>
    /// What the reader makes of them.
    let pulled: ([UInt8]) -> ReadOutcome<String>

    /// An integer type.
    static func integer<T: FixedWidthInteger & Decodable>(_ type: T.Type) -> NumberType {
        NumberType(
            name: "\(T.self)",
            decoded: { bytes in
                guard let value = try? JSONDecoder().decode(T.self, from: Data(bytes)) else { return .refused }
                return .value("\(value)")
            },
            pulled: { bytes in
                readerOutcome(bytes) { (reader: inout JSONPullReader) throws(JSONReadError) in
                    "\(try reader.readInteger(T.self))"
                }
            })
    }

    /// `Double`, compared by its bits.
    static var double: NumberType {
        NumberType(
            name: "Double",
            decoded: { bytes in
                guard let value = try? JSONDecoder().decode(Double.self, from: Data(bytes)) else { return .refused }
                return .value("\(value.bitPattern)")
            },
            pulled: { bytes in
                readerOutcome(bytes) { (reader: inout JSONPullReader) throws(JSONReadError) in
                    "\(try reader.readDouble().bitPattern)"
                }
            })
    }

    /// `Float`, compared by its bits.
    static var float: NumberType {
        NumberType(
            name: "Float",
            decoded: { bytes in
                guard let value = try? JSONDecoder().decode(Float.self, from: Data(bytes)) else { return .refused }
                return .value("\(value.bitPattern)")
            },
            pulled: { bytes in
                readerOutcome(bytes) { (reader: inout JSONPullReader) throws(JSONReadError) in
                    "\(try reader.readFloat().bitPattern)"
                }
            })
    }

    /// All of them.
    static var all: [NumberType] {
        [
            integer(Int.self), integer(Int8.self), integer(Int16.self), integer(Int32.self), integer(Int64.self),
            integer(Int128.self), integer(UInt.self), integer(UInt8.self), integer(UInt16.self), integer(UInt32.self),
            integer(UInt64.self), integer(UInt128.self), double, float,
        ]
    }
}

/// Expects every number type to read `text` as JSONDecoder reads it; returns how many read it.
@discardableResult
private func expectSameNumber(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Int {
    let bytes = Array(text.utf8)
    var accepted = 0
    for type in NumberType.all {
        let expected = type.decoded(bytes)
        #expect(type.pulled(bytes) == expected, "\(text) as \(type.name)", sourceLocation: sourceLocation)
        if expected != .refused { accepted += 1 }
    }
    return accepted
}

@Suite("JSON pull reader: numbers as JSONDecoder converts them", .heavy)
struct JSONPullReaderNumberTests {
    @Test(arguments: [
        "0", "-0", "1", "-1", "1.0", "-0.0", "1e2", "1E+2", "1e-2", "1.5e1", "0.5", "-0.5", "1e-400", "-1e-400",
        "0e-400", "0e400", "1e400", "-1e400", "127", "128", "-128", "-129", "255", "256", "255.0", "255.5", "32767",
        "32768", "-32768", "-32769", "65535", "65536", "2147483647", "2147483648", "-2147483648", "-2147483649",
        "4294967295", "4294967296", "9007199254740991", "9007199254740992", "9007199254740993",
        "9007199254740993.0", "9007199254740993.5", "9007199254740993e0", "9223372036854775807",
        "9223372036854775808", "-9223372036854775808", "-9223372036854775808.0", "-9223372036854775809",
        "9223372036854775807.0", "18446744073709551615", "18446744073709551615.0", "18446744073709551616",
        "1844674407370955161.5", "1844674407370955161.65", "184467440737095516.10", "184467440737095516.100",
        "1.0000000000000001", "12345678901234567890e-1", "123456789012345678901234567890",
        "170141183460469231731687303715884105727", "170141183460469231731687303715884105728",
        "-170141183460469231731687303715884105728", "340282366920938463463374607431768211455", "1e20", "1e19",
        "1.8e19", "-1e18", "1e30", "00", "01", "-01", "1.", "-", "1e", "1e+", "1.e5", ".5", "+1", "1.2.3", "1e5e5",
        "--1", "1-2", "0x10", "1x", " 1", "1 ", "\n-2\t", "2.2250738585072011e-308", "2.2250738585072014e-308",
        "4.9e-324", "2e-324", "3e-324", "2.4703282292062327e-324", "2.4703282292062328e-324",
        "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308", "3.4028235e38",
        "3.4028236e38", "1e-45", "1e-46", "1.4e-45", "7e-46", "0.1", "0.2", "0.3", "1e22", "1e23",
        "9007199254740993e22",
        "123456789012345678901234567890e-30", "0.000000000000000000000000000001", "1E0", "1e-0", "1e+0", "1e0001",
        "-0e-0", "0.0e+00", "1.00000005960464477550", "1.0000000596046448", "1.000000059604644775390625",
        "100000000000000000000000e-24", "18446744073709551615e0", "1844674407370955161.6e1",
    ])
    func numbersAreConvertedAsJSONDecoderConvertsThem(text: String) {
        expectSameNumber(text)
    }

    @Test func hugeDigitStringsAreConvertedAsJSONDecoderConvertsThem() {
        expectSameNumber(String(repeating: "9", count: 400))
        expectSameNumber("0." + String(repeating: "0", count: 400) + "1")
        expectSameNumber("1" + String(repeating: "0", count: 30) + "e-30")
        expectSameNumber(String(repeating: "1", count: 100) + "e-85")
        expectSameNumber("4.9406564584124654417656879286822137236505980e-324")
        expectSameNumber(
            "2." + String(repeating: "4703282292062327208828439643411068618252990130716238221279284125", count: 12))
    }

    @Test func aNumberTooLongForJSONDecodersDecimalIsRefused() {
        // About 1.1e19, an integer as a Double, which sends JSONDecoder to a Decimal that cannot hold 320 digits:
        // JSONDecoder stops the process on a precondition there (so it is not asked); the reader refuses.
        let bytes = Array((String(repeating: "1", count: 320) + "e-300").utf8)
        let outcome = readerOutcome(bytes) { (reader: inout JSONPullReader) throws(JSONReadError) in
            try reader.readInteger(UInt64.self)
        }
        #expect(outcome == .refused)
        #expect(NumberType.double.pulled(bytes) == NumberType.double.decoded(bytes))
    }

    @Test func randomNumbersAreConvertedAsJSONDecoderConvertsThem() {
        var random = SplitMix64(seed: 0x00A1_BE55)
        var accepted = 0
        for _ in 0..<1200 {
            accepted += expectSameNumber(Self.randomNumber(&random))
        }
        // Most are read by some type, so the comparison is not all refusals.
        #expect(accepted > 3000)
    }

    @Test func randomDoublesReadBackBitForBit() {
        var random = SplitMix64(seed: 0xD0_0B1E)
        for _ in 0..<2000 {
            let double = Double(bitPattern: random.next())
            guard double.isFinite else { continue }
            for text in ["\(double)", String(format: "%.17g", double), String(format: "%.6e", double)] {
                let bytes = Array(text.utf8)
                let expected = NumberType.double.decoded(bytes)
                #expect(NumberType.double.pulled(bytes) == expected, "\(text)")
            }
        }
    }

    @Test func randomFloatsAndTheirMidpointsReadBackBitForBit() {
        // Just above half-way between two Floats, a Double rounds to the half-way point and then to the even
        // Float; strtof (and JSONDecoder) round once, to the Float above.
        var random = SplitMix64(seed: 0xF1_0A7)
        for _ in 0..<1500 {
            let float = Float(bitPattern: UInt32(truncatingIfNeeded: random.next()))
            guard float.isFinite, float.nextUp.isFinite else { continue }
            let midpoint = (Double(float) + Double(float.nextUp)) / 2
            for text in [
                "\(float)", String(format: "%.9g", Double(float)), String(format: "%.30g", midpoint) + "1",
                String(format: "%.30g", midpoint),
            ] {
                let bytes = Array(text.utf8)
                #expect(NumberType.float.pulled(bytes) == NumberType.float.decoded(bytes), "\(text)")
            }
        }
    }

    /// A number's text: mostly valid, near the edges of the integer types and of Double, sometimes broken.
    private static func randomNumber(_ random: inout SplitMix64) -> String {
        func digits(_ count: Int) -> String {
            String(
                (0..<count).map { _ in
                    Character(Unicode.Scalar(UInt8(ascii: "0") + UInt8.random(in: 0...9, using: &random)))
                })
        }
        var text = Bool.random(using: &random) ? "-" : ""
        switch Int.random(in: 0..<6, using: &random) {
        case 0:
            // Near a power of two an integer type ends at.
            let power = [7, 8, 15, 16, 31, 32, 53, 63, 64, 127, 128].randomElement(using: &random)!
            let base = power >= 64 ? (UInt128(1) << power) : UInt128(UInt64(1) << power)
            let offset = UInt128(UInt64.random(in: 0...3, using: &random))
            text += Bool.random(using: &random) ? "\(base + offset)" : "\(base - min(base, offset))"
        case 1:
            text += String(Int.random(in: 1...9, using: &random)) + digits(Int.random(in: 0...24, using: &random))
        default:
            text += Bool.random(using: &random) ? "0" : String(Int.random(in: 1...9, using: &random))
            text += digits(Int.random(in: 0...20, using: &random))
        }
        if Int.random(in: 0..<3, using: &random) == 0 { text += "." + digits(Int.random(in: 1...20, using: &random)) }
        if Int.random(in: 0..<3, using: &random) == 0 {
            text += ["e", "E"].randomElement(using: &random)! + ["", "+", "-"].randomElement(using: &random)!
            text += String(Int.random(in: 0...400, using: &random))
        }
        if Int.random(in: 0..<12, using: &random) == 0 {
            // Broken: a character dropped, doubled or added.
            var characters = Array(text)
            let index = Int.random(in: 0..<characters.count, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: characters.remove(at: index)
            case 1: characters.insert(characters[index], at: index)
            default: characters.insert([".", "e", "-", "+", "0"].randomElement(using: &random)!, at: index)
            }
            text = String(characters)
        }
        return text
    }
}
