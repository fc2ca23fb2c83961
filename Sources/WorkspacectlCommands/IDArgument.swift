import ArgumentParser
import WorkspaceAPI
import WorkspaceClient
import WorkspaceModel

/// A record id on the command line: a full id (a UUID in any letter case) or a unique prefix of one (at least 4
/// hexadecimal digits, hyphens ignored), resolved by ``ConnectionOptions/perform(resolving:as:_:human:)``.
struct IDArgument: ExpressibleByArgument, Sendable {
    /// The id or prefix as parsed.
    let reference: IDReference

    init?(argument: String) {
        guard let reference = IDReference(argument) else { return nil }
        self.reference = reference
    }

    /// The help for an id argument naming a record of `kind`, e.g. "The project's id, or a unique prefix of it".
    static func help(_ kind: RecordKind) -> ArgumentHelp {
        ArgumentHelp(
            "The \(kind)'s id, or a unique prefix of it (at least \(IDReference.minimumPrefixLength) hex digits).",
            valueName: "\(kind)-id")
    }
}

/// A layout on the command line: `single`, `split` or `quad`.
struct LayoutArgument: ExpressibleByArgument, Sendable {
    /// The parsed layout.
    let layout: Layout

    init?(argument: String) {
        let layout = Layout(rawValue: argument)
        guard Layout.knownValues.contains(layout) else { return nil }
        self.layout = layout
    }

    static var allValueStrings: [String] { Layout.knownValues.map(\.rawValue) }
}

/// A view mode on the command line: `list`, `icons` or `columns`.
struct ViewModeArgument: ExpressibleByArgument, Sendable {
    /// The parsed view mode.
    let viewMode: ViewMode

    init?(argument: String) {
        let viewMode = ViewMode(rawValue: argument)
        guard ViewMode.knownValues.contains(viewMode) else { return nil }
        self.viewMode = viewMode
    }

    static var allValueStrings: [String] { ViewMode.knownValues.map(\.rawValue) }
}

extension WorkspaceETag: ExpressibleByArgument {
    /// Parses `lineage.revision`, quoted or not, as `--if-match` and `watch --since` take it.
    public init?(argument: String) {
        self.init(argument)
    }
}
