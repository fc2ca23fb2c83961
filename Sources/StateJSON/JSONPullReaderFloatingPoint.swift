#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The C locale's number formats, which JSONDecoder's strtod and strtof calls use (nil if it cannot be made; the
/// process's locale is then used, which is the C locale unless the program changed it).
nonisolated(unsafe) private let cNumericLocale = newlocale(Int32(1) << LC_NUMERIC, "C", nil)

extension JSONPullReader {
    /// Reads a number as a `Double`, bit for bit what JSONDecoder decodes (strtod's correctly rounded value).
    /// A number beyond `Double`'s range (1e400), or one that rounds to zero without being zero (1e-400), is
    /// refused, as JSONDecoder refuses it.
    ///
    /// When it throws, the reader is still where the value starts (after whitespace).
    package mutating func readDouble() throws(JSONReadError) -> Double {
        _ = try expectValue(.number)
        let number = try checkedNumber(from: index)
        let value = doubleValue(of: number)
        guard value.isFinite, value != 0 || number.significantDigits == 0 else {
            throw JSONReadError(.numberNotRepresentable(type: "Double"), at: number.start)
        }
        index = number.end
        return value
    }

    /// Reads a number as a `Float`, bit for bit what JSONDecoder decodes (strtof's value, not a rounded Double).
    /// A number beyond `Float`'s range, or one that rounds to zero without being zero, is refused.
    ///
    /// When it throws, the reader is still where the value starts (after whitespace).
    package mutating func readFloat() throws(JSONReadError) -> Float {
        _ = try expectValue(.number)
        let number = try checkedNumber(from: index)
        let value: Float
        if number.significantDigits <= 19 && number.significand <= 1 << 24 && (-10...10).contains(number.exponent) {
            // Both factors are exact Floats, so the one operation rounds correctly, as strtof does.
            let scale = Float(Self.powersOfTen[abs(number.exponent)])
            let magnitude = Float(number.significand)
            value = number.exponent < 0 ? magnitude / scale : magnitude * scale
        } else {
            value = withCString(of: number) { strtof($0, nil) }
        }
        let signed = number.isNegative ? -value : value
        guard signed.isFinite, signed != 0 || number.significantDigits == 0 else {
            throw JSONReadError(.numberNotRepresentable(type: "Float"), at: number.start)
        }
        index = number.end
        return signed
    }

    /// The `Double` nearest to `number` (infinite when it is beyond `Double`'s range), as strtod finds it.
    func doubleValue(of number: JSONNumberText) -> Double {
        let value: Double
        if number.significantDigits <= 19 && number.significand <= 1 << 53 && (-22...22).contains(number.exponent) {
            // Clinger's fast path: both factors are exact Doubles, so the one operation rounds correctly.
            let scale = Self.powersOfTen[abs(number.exponent)]
            let magnitude = Double(number.significand)
            value = number.exponent < 0 ? magnitude / scale : magnitude * scale
        } else {
            value = withCString(of: number) { strtod($0, nil) }
        }
        return number.isNegative ? -value : value
    }

    /// The powers of ten that are exact `Double`s, 1e0 to 1e22.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
        1e20, 1e21, 1e22,
    ]

    /// `parse` called with the magnitude of `number` (its text without a `-`) as a NUL-terminated C string, in the
    /// C locale.
    private func withCString<Result>(
        of number: JSONNumberText, _ parse: (UnsafePointer<CChar>) -> Result
    ) -> Result {
        let start = number.isNegative ? number.start + 1 : number.start
        let text = UnsafeRawBufferPointer(rebasing: bytes[start..<number.end])
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: text.count + 1) { buffer in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: text)
            buffer[text.count] = 0
            let previous = uselocale(cNumericLocale)
            defer { uselocale(previous) }
            return parse(UnsafePointer(buffer.baseAddress!))
        }
    }
}
