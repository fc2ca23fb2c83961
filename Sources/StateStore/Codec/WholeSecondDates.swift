import FoundationEssentials
import StateJSON

/// The dates of the store's own records (the history's manifest, the crash-loop guard's record): ISO 8601 in UTC to
/// the whole second, the text `JSONEncoder`'s `.iso8601` strategy writes (it drops the fraction, rounding down),
/// so that every release reads what another wrote. Written and read by ``ISO8601Timestamp``'s arithmetic instead of
/// Foundation's formatter, whose calendar and time zone cost every start about 0.3 ms before `READY=1`.
enum WholeSecondDates {
    /// Writes `date` rounded down to the whole second, as `2026-11-22T02:21:00Z`.
    @Sendable static func encode(_ date: Date, _ encoder: any Encoder) throws {
        let seconds = date.timeIntervalSinceReferenceDate
        let whole = seconds.isFinite ? Date(timeIntervalSinceReferenceDate: seconds.rounded(.down)) : date
        try StateCodec<Int>.encodeISO8601(whole, encoder)
    }

    /// Reads an ISO 8601 date-time (``StateCodec/decodeISO8601(_:)``: also one with a fraction or an offset).
    @Sendable static func decode(_ decoder: any Decoder) throws -> Date {
        try StateCodec<Int>.decodeISO8601(decoder)
    }
}
