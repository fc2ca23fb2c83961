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
        _ = withVaList([value]) { vsnprintf(&buffer, buffer.count, "%.\(places)f", $0) }
        return String(cString: buffer)
    }
}
