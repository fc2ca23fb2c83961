import FoundationEssentials
import Glibc

/// A time as `yyyyMMdd'T'HHmmss'Z'` in UTC (`20261122T022100Z`): the compact ISO 8601 form of file names and of
/// AWS Signature Version 4, written with `gmtime_r(3)` (FoundationEssentials has no UTC calendar by identifier).
package enum UTCTimestamp {
    /// `date`, to the second below it, in the compact form.
    package static func compact(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func digits(_ fields: [(Int32, Int)]) -> String {
            fields.map { DecimalText.padded($0.0, width: $0.1) }.joined()
        }
        return digits([(parts.tm_year + 1900, 4), (parts.tm_mon + 1, 2), (parts.tm_mday, 2)]) + "T"
            + digits([(parts.tm_hour, 2), (parts.tm_min, 2), (parts.tm_sec, 2)]) + "Z"
    }
}
