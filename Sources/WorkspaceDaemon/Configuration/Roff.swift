/// Text for roff (man(7)) input: prose that cannot be taken for a request, and literal tokens (options, paths,
/// variables) whose hyphens stay ASCII minus signs when the page is rendered, so they can be copied and pasted.
enum Roff {
    /// `text` as roff prose: backslashes escaped, a line that starts with `.` or `'` (which roff would read as a
    /// request) guarded with `\&`, and the hyphens of a path (a word with a `/`) written `\-`, so that the path
    /// is never broken across lines at them.
    static func text(_ text: String) -> String {
        escaped(text) { $0.contains("/") }
    }

    /// `token` as a literal: prose escaping, and every `-` as `\-` (a minus sign, not a hyphen).
    static func literal(_ token: String) -> String {
        escaped(token) { _ in true }
    }

    /// `token` as a bold literal, inline: `\fB…\fR`.
    static func bold(_ token: String) -> String { "\\fB" + literal(token) + "\\fR" }

    /// `token` as an italic literal, inline: `\fI…\fR`.
    static func italic(_ token: String) -> String { "\\fI" + literal(token) + "\\fR" }

    /// `text` escaped, with `\-` for the hyphens of every word `literalHyphens` picks.
    private static func escaped(_ text: String, literalHyphens: (Substring) -> Bool) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let words = line.split(separator: " ", omittingEmptySubsequences: false).map { word in
                let word = word.replacing("\\", with: "\\e")[...]
                return literalHyphens(word) ? String(word.replacing("-", with: "\\-")) : String(word)
            }
            let joined = words.joined(separator: " ")
            return joined.hasPrefix(".") || joined.hasPrefix("'") ? "\\&" + joined : joined
        }
        .joined(separator: "\n")
    }
}
