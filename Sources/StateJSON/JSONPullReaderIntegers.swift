import FoundationEssentials

extension JSONPullReader {
    /// Reads a number as a `T`, as JSONDecoder decodes it: plain digits exactly; a fraction, an exponent or a value
    /// out of `T`'s range through a `Double` (and from 2^53 on a `Decimal`), so that `1.0` and `1e2` are read as 1
    /// and 100 and `0.5` is refused (the comment at the top of JSONPullReader.swift has the details).
    ///
    /// When it throws, the reader is still where the value starts (after whitespace).
    package mutating func readInteger<T: FixedWidthInteger>(_ type: T.Type = T.self) throws(JSONReadError) -> T {
        _ = try expectValue(.number)
        let number = try checkedNumber(from: index)
        guard let value: T = integerValue(of: number) else {
            throw JSONReadError(.numberNotRepresentable(type: "\(T.self)"), at: number.start)
        }
        index = number.end
        return value
    }

    /// `number` as a `T` as JSONDecoder converts it, or nil when JSONDecoder refuses it.
    func integerValue<T: FixedWidthInteger>(of number: JSONNumberText) -> T? {
        if number.isInteger {
            if number.significantDigits <= 19 {
                if let value: T = Self.integer(magnitude: number.significand, isNegative: number.isNegative) {
                    return value
                }
            } else if let value: T = integerDigits(of: number) {
                return value
            }
        }
        // JSONDecoder's slow path: through a Double, exact below 2^53, then through a Decimal.
        let double = doubleValue(of: number)
        guard let value = T(exactly: double) else { return nil }
        if double.magnitude < 9_007_199_254_740_992 { return value }
        let text = String(decoding: bytes[number.start..<number.end], as: UTF8.self)
        guard let decimal = Decimal(string: text) else { return nil }
        return Self.integer(of: decimal)
    }

    /// `magnitude`, negated if `isNegative`, as a `T`, if it holds it.
    @inline(__always)
    private static func integer<T: FixedWidthInteger>(magnitude: UInt64, isNegative: Bool) -> T? {
        guard isNegative else { return T(exactly: magnitude) }
        if magnitude == 0 { return 0 }
        guard T.isSigned, let belowMagnitude = T(exactly: magnitude - 1) else { return nil }
        return 0 - belowMagnitude - 1
    }

    /// The integer `number` (more than 19 digits) as a `T`, if it holds it, computed digit by digit.
    private func integerDigits<T: FixedWidthInteger>(of number: JSONNumberText) -> T? {
        var value: T = 0
        for offset in (number.isNegative ? number.start + 1 : number.start)..<number.end {
            let digit = T(bytes[offset] &- UInt8(ascii: "0"))
            let (product, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowAgain) =
                number.isNegative ? product.subtractingReportingOverflow(digit) : product.addingReportingOverflow(digit)
            guard !overflow && !overflowAgain else { return nil }
            value = sum
        }
        return value
    }

    /// `decimal` as a `T` as JSONDecoder converts it: its mantissa gathered in a `UInt64`, scaled by its exponent
    /// (a fraction truncated), nil on any overflow. Decimal's mantissa and exponent are not public; its
    /// description holds what the conversion needs: every digit of the mantissa, with a '.' before the last
    /// -exponent of them when the exponent is negative (when it is not, the conversion depends on the value only).
    private static func integer<T: FixedWidthInteger>(of decimal: Decimal) -> T? {
        var text = decimal.description.utf8[...]
        let isNegative = text.first == UInt8(ascii: "-")
        if isNegative { text = text.dropFirst() }
        var value: UInt64 = 0
        var fractionDigits: Int?  // nil before the '.'
        for byte in text {
            if byte == UInt8(ascii: ".") && fractionDigits == nil {
                fractionDigits = 0
                continue
            }
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }  // NaN
            let (product, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowAgain) = product.addingReportingOverflow(UInt64(digit))
            guard !overflow && !overflowAgain else { return nil }
            value = sum
            if let count = fractionDigits { fractionDigits = count + 1 }
        }
        for _ in 0..<(fractionDigits ?? 0) { value /= 10 }
        guard let magnitude = T(exactly: value) else { return nil }
        guard isNegative else { return magnitude }
        return T.isSigned ? 0 - magnitude : nil
    }
}
