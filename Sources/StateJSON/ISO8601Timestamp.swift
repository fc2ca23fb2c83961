import FoundationEssentials

/// ISO 8601 date-times as state files hold them, read and written by plain arithmetic on the bytes: no
/// formatter, calendar or locale per value, so a file of many dates loads about as fast as one of strings.
///
/// Reading accepts `YYYY-MM-DDThh:mm:ss`, optional fractional seconds (`.5`, `.123456`), then `Z` or an offset
/// `±hh:mm` (`T` and `Z` in either case). Anything else is handed to Foundation's ISO 8601 parser, so no text an
/// earlier release accepted is refused. Writing is in UTC: whole seconds when the date has none
/// (`2026-11-22T02:21:00Z`), otherwise the fewest fraction digits that read back as the same `Date`, so a load
/// followed by a save loses nothing. Dates are proleptic Gregorian, as ISO 8601 defines them.
package enum ISO8601Timestamp {
    /// Seconds from 1970-01-01 to 2001-01-01, Foundation's reference date.
    private static let referenceOffset: Int64 = 978_307_200
    /// Fraction digits beyond these cannot change a `Date` (a `Double`); they are checked but not used.
    private static let maximumFractionDigits = 17
    private static let foundationStyles: [Date.ISO8601FormatStyle] = [
        Date.ISO8601FormatStyle(), Date.ISO8601FormatStyle(includingFractionalSeconds: true),
    ]

    /// The dates ``string(from:)`` can write, from 0000-01-01T00:00:00Z up to 10000-01-01T00:00:00Z, as seconds
    /// since 2001.
    private static let writable: Range<Double> = {
        let start = CivilDate.days(year: 0, month: 1, day: 1) * 86_400 - referenceOffset
        let end = CivilDate.days(year: 10_000, month: 1, day: 1) * 86_400 - referenceOffset
        return Double(start)..<Double(end)
    }()

    /// The date `text` names, or `nil` when it is not an ISO 8601 date-time or names a date outside the years
    /// 0000–9999 (Foundation reads `20260-3-14T09:26:53Z`, and an offset can move 9999-12-31 into 10000; such a
    /// date could be loaded but never saved again, so it is refused at the load, where salvage can drop it).
    package static func date(from text: String) -> Date? {
        var text = text
        var date = text.withUTF8({ parse($0) })
        if date == nil {
            // Only here: building Foundation's styles costs about a millisecond (its calendar and time zone), and
            // `for … where` would build them for every date, including the ones the strict form read.
            for style in foundationStyles where date == nil {
                date = try? style.parse(text)
            }
        }
        guard let date, writable.contains(date.timeIntervalSinceReferenceDate) else { return nil }
        return date
    }

    /// `date` in UTC: whole seconds as `2026-11-22T02:21:00Z`, otherwise with the fewest fraction digits (up to
    /// 17) that read back as `date`.
    ///
    /// - Throws: ``TimestampRangeError`` when the date falls outside the years 0000–9999.
    package static func string(from date: Date) throws(TimestampRangeError) -> String {
        let sinceReference = date.timeIntervalSinceReferenceDate
        let whole = sinceReference.rounded(.down)
        // ±250,000 years either side of 2001 bounds the arithmetic below; the year check then narrows it.
        guard whole.isFinite, abs(whole) < 8e12 else { throw TimestampRangeError(date: date) }
        let wholeSeconds = Int64(whole)
        var text = try wholeSecondsText(wholeSeconds + referenceOffset, date: date)
        let fraction = sinceReference - whole
        if fraction > 0 {
            text += "." + fractionDigits(fraction, wholeSeconds: wholeSeconds, matching: sinceReference)
        }
        return text + "Z"
    }

    /// The shortest digit string `d` for which `wholeSeconds + 0.d` is exactly `target`, as ``parse(_:)`` adds them.
    private static func fractionDigits(_ fraction: Double, wholeSeconds: Int64, matching target: Double) -> String {
        // Used only when every precision rounds up to the next second (a date within 1e-17 s of it).
        var best = String(repeating: "9", count: maximumFractionDigits)
        for count in 1...maximumFractionDigits {
            let scale = power10(count)
            let scaled = Int64((fraction * Double(scale)).rounded())
            guard scaled < scale else { continue }
            let digits = String(scaled)
            best = String(repeating: "0", count: count - digits.count) + digits
            if Double(wholeSeconds) + Double(scaled) / Double(scale) == target { break }
        }
        return best
    }

    private static func wholeSecondsText(_ secondsSince1970: Int64, date: Date) throws(TimestampRangeError) -> String {
        let days = CivilDate.floorDivide(secondsSince1970, 86_400)
        let secondOfDay = secondsSince1970 - days * 86_400
        let (year, month, day) = CivilDate.civil(fromDays: days)
        guard (0...9999).contains(year) else { throw TimestampRangeError(date: date) }
        return String(unsafeUninitializedCapacity: 19) { buffer in
            var index = 0
            func put(_ value: Int64, width: Int) {
                var divisor = power10(width - 1)
                while divisor > 0 {
                    buffer[index] = UInt8(ascii: "0") + UInt8(value / divisor % 10)
                    index += 1
                    divisor /= 10
                }
            }
            func put(_ character: Unicode.Scalar) {
                buffer[index] = UInt8(ascii: character)
                index += 1
            }
            put(year, width: 4)
            put("-")
            put(month, width: 2)
            put("-")
            put(day, width: 2)
            put("T")
            put(secondOfDay / 3600, width: 2)
            put(":")
            put(secondOfDay / 60 % 60, width: 2)
            put(":")
            put(secondOfDay % 60, width: 2)
            return index
        }
    }

    /// Parses the strict form; `nil` for anything else.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var reader = ByteReader(bytes: bytes)
        guard let year = reader.number(digits: 4), reader.skip("-"),
            let month = reader.number(digits: 2), reader.skip("-"),
            let day = reader.number(digits: 2), reader.skip("T") || reader.skip("t"),
            let hour = reader.number(digits: 2), reader.skip(":"),
            let minute = reader.number(digits: 2), reader.skip(":"),
            let second = reader.number(digits: 2),
            (1...12).contains(month), (1...CivilDate.daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var fraction = 0.0
        if reader.skip(".") {
            guard let value = reader.fraction(maximumDigits: maximumFractionDigits) else { return nil }
            fraction = value
        }
        var offset: Int64 = 0
        if !(reader.skip("Z") || reader.skip("z")) {
            let sign: Int64
            if reader.skip("+") {
                sign = 1
            } else if reader.skip("-") {
                sign = -1
            } else {
                return nil
            }
            guard let hours = reader.number(digits: 2), reader.skip(":"), let minutes = reader.number(digits: 2),
                hours < 24, minutes < 60
            else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        guard reader.isAtEnd else { return nil }
        let seconds =
            CivilDate.days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSinceReferenceDate: Double(seconds - referenceOffset) + fraction)
    }

    private static func power10(_ exponent: Int) -> Int64 {
        var result: Int64 = 1
        for _ in 0..<exponent { result *= 10 }
        return result
    }
}

/// A date that cannot be written as an ISO 8601 date-time of four-digit years.
package struct TimestampRangeError: Error, CustomStringConvertible {
    /// The date.
    package let date: Date

    package var description: String {
        "the date \(date.timeIntervalSince1970) seconds after 1970 is outside the years 0000–9999 "
            + "that an ISO 8601 date-time can hold"
    }
}
