import FoundationEssentials
import StateCoding

extension WorkspaceChange: StateDirectEncodable {
    /// Writes the change as its synthesized `encode(to:)` writes it through the journal's `JSONEncoder` (sorted
    /// keys, dates as seconds since 2001): an object of one key, the case, whose value is an object of the case's
    /// labels in key order, an optional that is nil left out.
    public func write(stateWriter writer: inout StateDirectWriter) throws {
        writer.beginObject()
        switch self {
        case .createProject(let id, let name, let layout):
            try writer.member("createProject")
            try Self.writeLabels(&writer) { writer in
                try writer.member("id")
                try writer.write(id)
                try writer.member("layout")
                try writer.write(layout)
                try writer.member("name")
                writer.writeString(name)
            }
        case .updateProject(let id, let name, let layout):
            try writer.member("updateProject")
            try Self.writeLabels(&writer) { writer in
                try writer.member("id")
                try writer.write(id)
                if let layout {
                    try writer.member("layout")
                    try writer.write(layout)
                }
                if let name {
                    try writer.member("name")
                    writer.writeString(name)
                }
            }
        case .deleteProject(let id):
            try Self.writeID(&writer, "deleteProject", id)
        case .setActiveProject(let id):
            try writer.member("setActiveProject")
            try Self.writeLabels(&writer) { writer in
                if let id {
                    try writer.member("id")
                    try writer.write(id)
                }
            }
        case .createPane(let id, let projectID, let folder, let viewMode):
            try writer.member("createPane")
            try Self.writeLabels(&writer) { writer in
                try writer.member("folder")
                writer.writeString(folder)
                try writer.member("id")
                try writer.write(id)
                try writer.member("projectID")
                try writer.write(projectID)
                try writer.member("viewMode")
                try writer.write(viewMode)
            }
        case .updatePane(let id, let folder, let viewMode):
            try writer.member("updatePane")
            try Self.writeLabels(&writer) { writer in
                if let folder {
                    try writer.member("folder")
                    writer.writeString(folder)
                }
                try writer.member("id")
                try writer.write(id)
                if let viewMode {
                    try writer.member("viewMode")
                    try writer.write(viewMode)
                }
            }
        case .deletePane(let id):
            try Self.writeID(&writer, "deletePane", id)
        case .createTab(let id, let paneID, let folder):
            try writer.member("createTab")
            try Self.writeLabels(&writer) { writer in
                try writer.member("folder")
                writer.writeString(folder)
                try writer.member("id")
                try writer.write(id)
                try writer.member("paneID")
                try writer.write(paneID)
            }
        case .deleteTab(let id):
            try Self.writeID(&writer, "deleteTab", id)
        case .focusTab(let id):
            try Self.writeID(&writer, "focusTab", id)
        case .addFavorite(let id, let name, let path, let createdAt):
            try writer.member("addFavorite")
            try Self.writeLabels(&writer) { writer in
                try writer.member("createdAt")
                try writer.writeDate(createdAt)
                try writer.member("id")
                try writer.write(id)
                try writer.member("name")
                writer.writeString(name)
                try writer.member("path")
                writer.writeString(path)
            }
        case .deleteFavorite(let id):
            try Self.writeID(&writer, "deleteFavorite", id)
        case .updateOwner(let alias, let email):
            try writer.member("updateOwner")
            try Self.writeLabels(&writer) { writer in
                if let alias {
                    try writer.member("alias")
                    writer.writeString(alias)
                }
                if let email {
                    try writer.member("email")
                    writer.writeString(email)
                }
            }
        case .restoreWorkspace(let workspace):
            try writer.member("restoreWorkspace")
            try Self.writeLabels(&writer) { writer in
                try writer.member("workspace")
                try writer.write(workspace)
            }
        case .restoreProject(let project, let index):
            try writer.member("restoreProject")
            try Self.writeLabels(&writer) { writer in
                try writer.member("index")
                writer.writeInteger(index)
                try writer.member("project")
                try writer.write(project)
            }
        }
        try writer.endObject()
    }

    /// Writes a case's object of labels: `body` writes its members, in key order.
    @inline(__always)
    private static func writeLabels(
        _ writer: inout StateDirectWriter, _ body: (inout StateDirectWriter) throws -> Void
    ) throws {
        writer.beginObject()
        try body(&writer)
        try writer.endObject()
    }

    /// Writes the case `name` whose only label is `id`.
    private static func writeID(_ writer: inout StateDirectWriter, _ name: StaticString, _ id: WorkspaceID) throws {
        try writer.member(name)
        try writeLabels(&writer) { writer in
            try writer.member("id")
            try writer.write(id)
        }
    }
}
