/// Trimming of ASCII white space, for the few places that read a header, a key file or a configuration value:
/// what Foundation's `trimmingCharacters(in: .whitespaces)` and `(in: .whitespacesAndNewlines)` did there, without
/// linking Foundation into a binary that reads nothing else with it.
extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    package func trimmingBlanks() -> String {
        trimming { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    }

    /// The text without leading and trailing spaces, tabs, line feeds and carriage returns (and the other ASCII
    /// vertical spaces: vertical tab, form feed).
    package func trimmingWhiteSpace() -> String {
        trimming { $0 == UInt8(ascii: " ") || (0x09...0x0D).contains($0) }
    }

    private func trimming(_ isTrimmed: (UInt8) -> Bool) -> String {
        let text = Substring(self)
        guard let first = text.utf8.firstIndex(where: { !isTrimmed($0) }) else { return "" }
        let last = text.utf8.lastIndex(where: { !isTrimmed($0) })!
        // The bounds sit next to ASCII bytes, so they are character boundaries.
        return String(text[first...last])
    }
}
