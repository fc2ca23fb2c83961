import FoundationEssentials
import Glibc

/// A time in UTC, written with `gmtime_r(3)` (FoundationEssentials has no UTC calendar by identifier): the compact
/// ISO 8601 form of file names and of AWS Signature Version 4, and the calendar day of a manual page.
package enum UTCTimestamp {
    /// `date`, to the second below it, as `yyyyMMdd'T'HHmmss'Z'` (`20261122T022100Z`): sorts in time order as text.
    package static func compact(_ date: Date) -> String {
        let parts = fields(date)
        return digits([(parts.tm_year + 1900, 4), (parts.tm_mon + 1, 2), (parts.tm_mday, 2)]) + "T"
            + digits([(parts.tm_hour, 2), (parts.tm_min, 2), (parts.tm_sec, 2)]) + "Z"
    }

    /// The day of `date` as `yyyy-MM-dd` (`2026-11-22`).
    package static func day(_ date: Date) -> String {
        let parts = fields(date)
        return [(parts.tm_year + 1900, 4), (parts.tm_mon + 1, 2), (parts.tm_mday, 2)]
            .map { DecimalText.padded($0.0, width: $0.1) }.joined(separator: "-")
    }

    /// The calendar fields of `date`, to the second below it, in UTC.
    private static func fields(_ date: Date) -> tm {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return parts
    }

    /// Each value zero-padded to its width, joined.
    private static func digits(_ fields: [(Int32, Int)]) -> String {
        fields.map { DecimalText.padded($0.0, width: $0.1) }.joined()
    }
}
