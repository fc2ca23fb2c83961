import Foundation
import WorkspaceAPI
import WorkspaceModel

/// Text renderings of the API's records and answers for people.
enum Formatting {
    /// `revision 7 (ETag 9f2c4e1a7b3d5e60.7)` or `revision 7, durable 7 (ETag 9f2c4e1a7b3d5e60.7)`.
    static func revision<Value>(_ change: ChangeResponse<Value>) -> String {
        let revision =
            change.durableRevision.map { "revision \(change.revision), durable \($0)" } ?? "revision \(change.revision)"
        return revision + " (ETag \(change.etag))"
    }

    /// One line per project with its panes and tabs indented below.
    static func project(_ project: Project, active: Bool = false) -> String {
        var lines = ["\(active ? "*" : " ") \(project.id)  \(project.name)  [\(project.layout.rawValue)]"]
        for pane in project.panes {
            lines.append("    pane \(pane.id)  \(pane.folder)  (\(pane.viewMode.rawValue))")
            for (index, tab) in pane.tabs.enumerated() {
                let mark = index == pane.focusedTabIndex ? ">" : " "
                lines.append("      \(mark) tab \(tab.id)  \(tab.folder)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `id  name  path`.
    static func favorite(_ favorite: Favorite) -> String {
        "\(favorite.id)  \(favorite.name)  \(favorite.path)"
    }

    /// `alias <email>`, or `(none)`.
    static func owner(_ owner: Owner) -> String {
        let alias = owner.alias.isEmpty ? "(no alias)" : owner.alias
        return owner.email.isEmpty ? alias : "\(alias) <\(owner.email)>"
    }

    /// `id  scope  name  created …  last used …`, and `REVOKED …` for a revoked token.
    static func token(_ token: TokenInfo) -> String {
        let used = token.lastUsedAt.map { "last used " + moment($0) } ?? "never used"
        let revoked = token.revokedAt.map { "  REVOKED " + moment($0) } ?? ""
        return "\(token.id)  \(token.scope)  \(token.name)  created \(moment(token.createdAt))  \(used)\(revoked)"
    }

    /// `3d 4h 5m 6s`, dropping leading zero units.
    static func duration(_ seconds: Double) -> String {
        var rest = Int(seconds.rounded(.down))
        let days = rest / 86_400
        rest %= 86_400
        let parts = [(days, "d"), (rest / 3600, "h"), (rest % 3600 / 60, "m"), (rest % 60, "s")]
        let shown = parts.drop { $0.0 == 0 && $0.1 != "s" }
        return shown.map { "\($0.0)\($0.1)" }.joined(separator: " ")
    }

    /// ISO-8601 with how long ago, e.g. `2026-11-22T03:00:00Z (12s ago)`.
    static func moment(_ date: Date, now: Date = Date()) -> String {
        let text = date.formatted(.iso8601)
        let age = now.timeIntervalSince(date)
        return age >= 0 ? "\(text) (\(duration(age)) ago)" : text
    }
}
