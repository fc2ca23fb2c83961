import Foundation
import StateStore
import WorkspaceModel
import WorkspaceStorage

/// A workspace of about a given size, made with the real model and written as the daemon writes it: projects with
/// four panes of two tabs each, a favorite per project, realistic names, paths, UUIDs and dates.
///
/// The version 1 file holds the same projects, panes and favorites (version 1 has no tabs and no `createdAt`; its
/// panes' view modes are numbers and its owner has `name` and `age`), as a file an early release wrote.
struct WorkspaceGenerator {
    static let words = [
        "atlas", "beacon", "cobalt", "delta", "ember", "fjord", "garnet", "harbor", "indigo", "juniper", "kestrel",
        "lumen", "meridian", "nimbus", "orchid", "prism", "quartz", "raven", "sierra", "tundra", "umber", "vertex",
        "willow", "xenon", "yarrow", "zephyr",
    ]
    static let folders = ["src", "docs", "tests", "build", "assets", "scripts", "notes", "design"]

    /// Both files of one workspace.
    struct Files {
        var v4: Data
        var v1: Data
        var projects: Int
    }

    /// A workspace whose version 4 file is about `bytes` long.
    static func make(bytes: Int, seed: UInt64 = 16) throws -> Files {
        let schema = try WorkspaceSchema.make()
        let codec = StateCodec(schema: schema)
        // About 820 bytes a project in version 4; one pass to measure, one to hit the size.
        var projects = max(1, bytes / 820)
        var model = workspace(projects: projects, seed: seed)
        var encoded = try codec.encode(model)
        projects = max(1, Int(Double(projects) * Double(bytes) / Double(encoded.count)))
        model = workspace(projects: projects, seed: seed)
        encoded = try codec.encode(model)
        return Files(v4: encoded, v1: try versionOne(of: model), projects: projects)
    }

    /// The model: `projects` projects, each with four panes of two tabs and one favorite.
    static func workspace(projects count: Int, seed: UInt64) -> Workspace {
        var random = SeededRandom(seed: seed)
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        var projects: [Project] = []
        var favorites: [Favorite] = []
        projects.reserveCapacity(count)
        favorites.reserveCapacity(count)
        for index in 0..<count {
            let name = "\(words.randomElement(using: &random)!) \(words.randomElement(using: &random)!) \(index)"
            let root = "/home/margaret/work/\(name.replacingOccurrences(of: " ", with: "-"))"
            let panes = (0..<4).map { _ in
                let folder = root + "/" + folders.randomElement(using: &random)!
                return Pane(
                    id: WorkspaceID(uuid(&random)), folder: folder,
                    viewMode: ViewMode.knownValues.randomElement(using: &random)!, focusedTabIndex: 1,
                    tabs: (0..<2).map { _ in
                        Tab(
                            id: WorkspaceID(uuid(&random)),
                            folder: folder + "/" + folders.randomElement(using: &random)!,
                            unknownFields: UnknownFields())
                    },
                    unknownFields: UnknownFields())
            }
            projects.append(
                Project(
                    id: WorkspaceID(uuid(&random)), name: name,
                    layout: Layout.knownValues.randomElement(using: &random)!, panes: panes))
            favorites.append(
                Favorite(
                    id: WorkspaceID(uuid(&random)), name: "\(name) docs", path: root + "/docs",
                    createdAt: start + Double(Int.random(in: 0..<40_000_000, using: &random)),
                    unknownFields: UnknownFields()))
        }
        return Workspace(
            projects: projects, favorites: favorites, activeProjectID: projects.first?.id,
            owner: Owner(alias: "margaret", email: "margaret@example.com"))
    }

    /// The version 1 file of the same projects, panes and favorites.
    static func versionOne(of model: Workspace) throws -> Data {
        let modes = ["list": 0, "icons": 1, "columns": 2]
        let object: [String: Any] = [
            "projects": model.projects.map { project in
                [
                    "id": project.id.description, "name": project.name, "layout": project.layout.rawValue,
                    "panes": project.panes.map { pane in
                        [
                            "id": pane.id.description, "folder": pane.folder,
                            "viewMode": modes[pane.viewMode.rawValue] ?? 0,
                        ]
                    },
                ] as [String: Any]
            },
            "favorites": model.favorites.map { ["id": $0.id.description, "name": $0.name, "path": $0.path] },
            "activeProjectID": model.activeProjectID?.description ?? NSNull(),
            "owner": ["name": "Margaret", "age": "41"],
        ]
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    static func uuid(_ random: inout SeededRandom) -> UUID {
        var bytes = (random.next(), random.next())
        return withUnsafeMutableBytes(of: &bytes) { raw in
            raw[6] = (raw[6] & 0x0F) | 0x40
            raw[8] = (raw[8] & 0x3F) | 0x80
            return UUID(uuid: raw.load(as: uuid_t.self))
        }
    }
}
