import FoundationEssentials
import StateCoding

extension WorkspaceChange: StateDirectDecodable {
    /// Reads a change as its synthesized `Decodable` conformance reads what `JSONEncoder` wrote: an object of one
    /// key, the case, whose value is an object of the case's labels (an optional's key absent or `null` is nil,
    /// another key is skipped), dates as seconds since 2001. Anything else (a second case key, a key held twice, a
    /// wrong type) is refused, and the journal's replay reads the record through `JSONDecoder`, which decides.
    public init(stateReader reader: inout StateDirectReader) throws {
        try reader.beginObject()
        guard let key = try reader.nextKey() else { throw reader.refusal("a change with no case") }
        let change: WorkspaceChange
        if key.matches("createProject") {
            change = try Self.readCreateProject(&reader)
        } else if key.matches("updateProject") {
            change = try Self.readUpdateProject(&reader)
        } else if key.matches("deleteProject") {
            change = .deleteProject(id: try Self.readID(&reader))
        } else if key.matches("setActiveProject") {
            change = try Self.readSetActiveProject(&reader)
        } else if key.matches("createPane") {
            change = try Self.readCreatePane(&reader)
        } else if key.matches("updatePane") {
            change = try Self.readUpdatePane(&reader)
        } else if key.matches("deletePane") {
            change = .deletePane(id: try Self.readID(&reader))
        } else if key.matches("createTab") {
            change = try Self.readCreateTab(&reader)
        } else if key.matches("deleteTab") {
            change = .deleteTab(id: try Self.readID(&reader))
        } else if key.matches("focusTab") {
            change = .focusTab(id: try Self.readID(&reader))
        } else if key.matches("addFavorite") {
            change = try Self.readAddFavorite(&reader)
        } else if key.matches("deleteFavorite") {
            change = .deleteFavorite(id: try Self.readID(&reader))
        } else if key.matches("updateOwner") {
            change = try Self.readUpdateOwner(&reader)
        } else if key.matches("restoreWorkspace") {
            change = try Self.readRestoreWorkspace(&reader)
        } else if key.matches("restoreProject") {
            change = try Self.readRestoreProject(&reader)
        } else {
            throw reader.refusal("\"\(key.text)\" is not a change")
        }
        guard try reader.nextKey() == nil else { throw reader.refusal("a change with more than one case") }
        self = change
    }

    /// Reads the case's object of labels: `read` is given the position in `labels` of each label it meets, once
    /// (a label held twice is refused); any other key is skipped.
    ///
    /// Inlined into each case's reader, so that `read` is too: a replay reads hundreds of thousands of changes, and
    /// a call of the closure per label would cost more than the label's read.
    @inline(__always)
    private static func readLabels(
        _ reader: inout StateDirectReader, _ labels: [StaticString],
        _ read: (Int, inout StateDirectReader) throws -> Void
    ) throws {
        try reader.beginObject()
        var seen: UInt64 = 0
        var skipped: Set<String> = []
        while let key = try reader.nextKey() {
            if let index = labels.firstIndex(where: { key.matches($0) }) {
                try reader.claim(key, bit: index, of: &seen)
                try read(index, &reader)
            } else {
                try reader.skipUnknown(key, skipped: &skipped)
            }
        }
    }

    /// The `id` of a case that holds only that.
    private static func readID(_ reader: inout StateDirectReader) throws -> WorkspaceID {
        var id: WorkspaceID?
        try readLabels(&reader, ["id"]) { _, reader in id = try reader.read(WorkspaceID.self, at: "id") }
        return try reader.required(id, "id")
    }

    private static func readCreateProject(_ reader: inout StateDirectReader) throws -> WorkspaceChange {
        var id: WorkspaceID?
        var name: String?
        var layout: Layout?
        try readLabels(&reader, ["id", "name", "layout"]) { index, reader in
            switch index {
            case 0: id = try reader.read(WorkspaceID.self, at: "id")
            case 1: name = try reader.read(String.self, at: "name")
            default: layout = try reader.read(Layout.self, at: "layout")
            }
        }
        return .createProject(
            id: try reader.required(id, "id"), name: try reader.required(name, "name"),
            layout: try reader.required(layout, "layout"))
    }

    private static func readUpdateProject(_ reader: inout StateDirectReader) throws -> WorkspaceChange {
        var id: WorkspaceID?
        var name: String?
        var layout: Layout?
        try readLabels(&reader, ["id", "name", "layout"]) { index, reader in
            switch index {
            case 0: id = try reader.read(WorkspaceID.self, at: "id")
            case 1: name = try reader.readIfPresent(String.self, at: "name")
            default: layout = try reader.readIfPresent(Layout.self, at: "layout")
            }
        }
        return .updateProject(id: try reader.required(id, "id"), name: name, layout: layout)
    }

    private static func readSetActiveProject(_ reader: inout StateDirectReader) throws -> WorkspaceChange {
        var id: WorkspaceID?
        try readLabels(&reader, ["id"]) { _, reader in id = try reader.readIfPresent(WorkspaceID.self, at: "id") }
        return .setActiveProject(id: id)
    }

    private static func readCreatePane(_ reader: inout StateDirectReader) throws -> WorkspaceChange {
        var id: WorkspaceID?
        var projectID: WorkspaceID?
        var folder: String?
        var viewMode: ViewMode?
        try readLabels(&reader, ["id", "projectID", "folder", "viewMode"]) { index, reader in
            switch index {
            case 0: id = try reader.read(WorkspaceID.self, at: "id")
            case 1: projectID = try reader.read(WorkspaceID.self, at: "projectID")
            case 2: folder = try reader.read(String.self, at: "folder")
            default: viewMode = try reader.read(ViewMode.self, at: "viewMode")
            }
        }
        return .createPane(
            id: try reader.required(id, "id"), projectID: try reader.required(projectID, "projectID"),
            folder: try reader.required(folder, "folder"), viewMode: try reader.required(viewMode, "viewMode"))
    }

    private static func readUpdatePane(_ reader: inout StateDirectReader) throws -> WorkspaceChange {
        var id: WorkspaceID?
        var folder: String?
        var viewMode: ViewMode?
        try readLabels(&reader, ["id", "folder", "viewMode"]) { index, reader in
            switch index {
            case 0: id = try reader.read(WorkspaceID.self, at: "id")
            case 1: folder = try reader.readIfPresent(String.self, at: "folder")
            default: viewMode = try reader.readIfPresent(ViewMode.self, at: "viewMode")
            }
        }
        return .updatePane(id: try reader.required(id, "id"), folder: folder, viewMode: viewMode)
    }

    private static func readCreateTab(_ reader: inout StateDirectReader) throws -> WorkspaceChange {
        var id: WorkspaceID?
        var paneID: WorkspaceID?
        var folder: String?
        try readLabels(&reader, ["id", "paneID", "folder"]) { index, reader in
            switch index {
            case 0: id = try reader.read(WorkspaceID.self, at: "id")
            case 1: paneID = try reader.read(WorkspaceID.self, at: "paneID")
            default: folder = try reader.read(String.self, at: "folder")
            }
        }
        return .createTab(
            id: try reader.required(id, "id"), paneID: try reader.required(paneID, "paneID"),
            folder: try reader.required(folder, "folder"))
    }

    private static func readAddFavorite(_ reader: inout StateDirectReader) throws -> WorkspaceChange {
        var id: WorkspaceID?
        var name: String?
        var path: String?
        var createdAt: Date?
        try readLabels(&reader, ["id", "name", "path", "createdAt"]) { index, reader in
            switch index {
            case 0: id = try reader.read(WorkspaceID.self, at: "id")
            case 1: name = try reader.read(String.self, at: "name")
            case 2: path = try reader.read(String.self, at: "path")
            default: createdAt = try reader.read(Date.self, at: "createdAt")
            }
        }
        return .addFavorite(
            id: try reader.required(id, "id"), name: try reader.required(name, "name"),
            path: try reader.required(path, "path"), createdAt: try reader.required(createdAt, "createdAt"))
    }

    private static func readUpdateOwner(_ reader: inout StateDirectReader) throws -> WorkspaceChange {
        var alias: String?
        var email: String?
        try readLabels(&reader, ["alias", "email"]) { index, reader in
            switch index {
            case 0: alias = try reader.readIfPresent(String.self, at: "alias")
            default: email = try reader.readIfPresent(String.self, at: "email")
            }
        }
        return .updateOwner(alias: alias, email: email)
    }

    private static func readRestoreWorkspace(_ reader: inout StateDirectReader) throws -> WorkspaceChange {
        var workspace: Workspace?
        try readLabels(&reader, ["workspace"]) { _, reader in
            workspace = try reader.read(Workspace.self, at: "workspace")
        }
        return .restoreWorkspace(workspace: try reader.required(workspace, "workspace"))
    }

    private static func readRestoreProject(_ reader: inout StateDirectReader) throws -> WorkspaceChange {
        var project: Project?
        var index: Int?
        try readLabels(&reader, ["project", "index"]) { position, reader in
            switch position {
            case 0: project = try reader.read(Project.self, at: "project")
            default: index = try reader.read(Int.self, at: "index")
            }
        }
        return .restoreProject(
            project: try reader.required(project, "project"), index: try reader.required(index, "index"))
    }
}
