import Glibc

/// A number written with a fixed count of decimals, as `String(format: "%.Nf")` writes it, for modules that
/// link FoundationEssentials only (its C `vsnprintf`, so the rounding and the text are the same).
package enum DecimalText {
    /// `value` with `places` (0 to 20) decimals: `fixed(2.25, places: 1)` is `"2.2"`, as `printf`'s `%.1f`
    /// rounds.
    package static func fixed(_ value: Double, places: Int) -> String {
        precondition((0...20).contains(places), "DecimalText.fixed: \(places) decimals")
        // The largest finite double has 309 digits before the point: 512 bytes hold any of them.
        var buffer = [CChar](repeating: 0, count: 512)
        let count = withVaList([value]) { vsnprintf(&buffer, buffer.count, "%.\(places)f", $0) }
        return String(decoding: buffer.prefix(Int(max(0, count))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `value` in `radix` (10 by default), padded with zeros to `width` digits after the sign: what `%04d` and
    /// `%04o` write for a non-negative value.
    package static func padded(_ value: some BinaryInteger, width: Int, radix: Int = 10) -> String {
        let digits = String(value.magnitude, radix: radix)
        let padding = String(repeating: "0", count: max(0, width - digits.count))
        return (value < 0 ? "-" : "") + padding + digits
    }
}
