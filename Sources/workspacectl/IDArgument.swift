import ArgumentParser
import WorkspaceModel

/// A record id on the command line: a UUID in any letter case.
struct IDArgument: ExpressibleByArgument, Sendable {
    /// The parsed id.
    let id: WorkspaceID

    init?(argument: String) {
        guard let id = WorkspaceID(argument) else { return nil }
        self.id = id
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
