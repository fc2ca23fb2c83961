/// The README's table of configuration keys, made from ``ConfigurationKey/all`` (`workspaced
/// configuration-manual --markdown`); a test keeps the README's copy equal to it.
package enum ConfigurationKeyTable {
    /// The table in Markdown: key, environment variable, flag, default (with the allowed range) and meaning.
    package static var markdown: String {
        var lines = [
            "| key | environment | flag | default | meaning |",
            "| --- | --- | --- | --- | --- |",
        ]
        for key in ConfigurationKey.all {
            let flag = key.flag.map { "`\($0)`" } ?? "—"
            lines.append(
                "| `\(key.name)` | `\(key.environmentVariable)` | \(flag) | \(defaultCell(key)) | \(key.summary) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `500 (0–60000)`, `` `salvage` ``, `none`.
    private static func defaultCell(_ key: ConfigurationKey) -> String {
        switch (key.defaultValue, key.kind) {
        case (.integer(let value), .integer(let range)):
            return "\(value) (\(range.lowerBound)–\(range.upperBound))"
        case (.integer(let value), _):
            return "\(value)"
        case (.text(let value), _):
            return "`\(value)`"
        case (.described(let words), _):
            return words
        }
    }
}
