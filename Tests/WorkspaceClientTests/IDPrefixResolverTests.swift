import Foundation
import Testing
import WorkspaceAPI
import WorkspaceClient
import WorkspaceModel

@Suite("id references and prefix resolution")
struct IDPrefixResolverTests {
    /// Two projects whose ids share the prefix `3f25`, a third apart; a pane and a tab whose ids start like the
    /// first project's (ids are unique per kind only); two favorites.
    static let alpha = WorkspaceID("3F2504E0-4F89-11D3-9A0C-0305E82C3301")!
    static let beta = WorkspaceID("3f25aaaa-0000-4000-8000-000000000002")!
    static let gamma = WorkspaceID("c0ffee00-0000-4000-8000-000000000003")!
    static let pane = WorkspaceID("3f2504e0-aaaa-4000-8000-000000000004")!
    static let tab = WorkspaceID("3f2504e0-bbbb-4000-8000-000000000005")!
    static let home = WorkspaceID("6a1f0e3c-2222-4b9d-8e11-0f3c2b1a4d33")!
    static let work = WorkspaceID("6a1f9999-2222-4b9d-8e11-0f3c2b1a4d34")!

    static func workspace() throws -> Workspace {
        var workspace = Workspace()
        _ = try workspace.createProject(name: "Alpha", layout: .single, id: alpha)
        _ = try workspace.createProject(name: "Beta", layout: .split, id: beta)
        _ = try workspace.createProject(name: "Gamma", layout: .quad, id: gamma)
        _ = try workspace.addPane(toProject: alpha, folder: "/srv", viewMode: .list, id: pane)
        _ = try workspace.openTab(inPane: pane, folder: "/srv/a", id: tab)
        _ = try workspace.addFavorite(name: "Home", path: "/home/x", createdAt: Date(), id: home)
        _ = try workspace.addFavorite(name: "Work", path: "/work", createdAt: Date(), id: work)
        return workspace
    }

    @Test("a full id parses in any letter case; a prefix is 4–32 hex digits, hyphens ignored")
    func parsing() {
        #expect(IDReference("3f2504e0-4f89-11d3-9a0c-0305e82c3301") == .full(Self.alpha))
        #expect(IDReference("3F2504E0-4F89-11D3-9A0C-0305E82C3301") == .full(Self.alpha))
        #expect(IDReference("3F25") == .prefix(digits: "3f25", text: "3F25"))
        #expect(IDReference("3f2504e0-4f") == .prefix(digits: "3f2504e04f", text: "3f2504e0-4f"))
        #expect(IDReference("3f2504e04f8911d39a0c0305e82c3301") != nil, "32 digits without hyphens")
        for invalid in ["", "3f2", "3-f-2", "not-a-uuid", "3f25g", "3f2504e04f8911d39a0c0305e82c33012", "３f25"] {
            #expect(IDReference(invalid) == nil, "\(invalid) is no reference")
        }
        #expect(IDReference.minimumPrefixLength == 4)
    }

    @Test("a unique prefix resolves to its record's full id, within the kind asked for")
    func uniquePrefix() throws {
        let workspace = try Self.workspace()
        let projects = IDPrefixResolver(workspace, kind: .project)
        #expect(try projects.resolve(#require(IDReference("3f2504"))) == Self.alpha)
        #expect(try projects.resolve(#require(IDReference("3F25-A"))) == Self.beta)
        #expect(try projects.resolve(#require(IDReference("c0ff"))) == Self.gamma)
        #expect(try IDPrefixResolver(workspace, kind: .pane).resolve(#require(IDReference("3f25"))) == Self.pane)
        #expect(try IDPrefixResolver(workspace, kind: .tab).resolve(#require(IDReference("3f25"))) == Self.tab)
        #expect(try IDPrefixResolver(workspace, kind: .favorite).resolve(#require(IDReference("6a1f0"))) == Self.home)
    }

    @Test("an exact id wins, and a full id resolves to itself whatever its letter case")
    func exactMatch() throws {
        let resolver = IDPrefixResolver(try Self.workspace(), kind: .project)
        #expect(try resolver.resolve(#require(IDReference(Self.alpha.text.lowercased()))) == Self.alpha)
        #expect(try resolver.resolve(#require(IDReference("3f2504e04f8911d39a0c0305e82c3301"))) == Self.alpha)
        // Candidates given by a caller may repeat an id (in another letter case): still one record.
        let repeated = IDPrefixResolver(
            kind: .project,
            candidates: [
                .init(id: Self.alpha, label: "Alpha"),
                .init(id: WorkspaceID(Self.alpha.text.lowercased())!, label: "A"),
                .init(id: Self.beta, label: "Beta"),
            ])
        #expect(try repeated.resolve(.full(Self.alpha)) == Self.alpha)
        #expect(try repeated.matches(#require(IDReference("3f2504"))).count == 1)
    }

    @Test("an ambiguous prefix is an error listing every match with its label, in workspace order")
    func ambiguousPrefix() throws {
        let resolver = IDPrefixResolver(try Self.workspace(), kind: .project)
        let reference = try #require(IDReference("3f25"))
        #expect(throws: IDResolutionError.self) { try resolver.resolve(reference) }
        do {
            _ = try resolver.resolve(reference)
        } catch {
            guard case .ambiguous(let given, let kind, let matches) = error else {
                Issue.record("expected ambiguous, got \(error)")
                return
            }
            #expect(given == reference)
            #expect(kind == .project)
            #expect(matches.map(\.id) == [Self.alpha, Self.beta])
            #expect(matches.map(\.label) == ["Alpha", "Beta"])
            let text = error.description
            #expect(text.contains("the id prefix 3f25 is ambiguous"))
            #expect(text.contains("2 projects"))
            #expect(text.contains("  \(Self.alpha.text)  Alpha"))
            #expect(text.contains("  \(Self.beta.text)  Beta"))
            #expect(!text.contains("Gamma"))
        }
    }

    @Test("no match is notFound, naming the kind and what was given")
    func noMatch() throws {
        let workspace = try Self.workspace()
        let reference = try #require(IDReference("dead"))
        #expect(throws: IDResolutionError.notFound(reference: reference, kind: .project)) {
            try IDPrefixResolver(workspace, kind: .project).resolve(reference)
        }
        #expect(
            IDResolutionError.notFound(reference: reference, kind: .tab).description
                == "no tab with an id starting with dead")
        // A favorite's prefix does not name a project: kinds are apart.
        #expect(throws: IDResolutionError.self) {
            try IDPrefixResolver(workspace, kind: .project).resolve(#require(IDReference("6a1f")))
        }
        let unknown = WorkspaceID()
        #expect(throws: IDResolutionError.notFound(reference: .full(unknown), kind: .pane)) {
            try IDPrefixResolver(workspace, kind: .pane).resolve(.full(unknown))
        }
    }

    @Test("labels tell records apart: names, folders with their project, favorites with their path")
    func labels() throws {
        let workspace = try Self.workspace()
        #expect(IDPrefixResolver(workspace, kind: .pane).candidates.map(\.label) == ["/srv (project Alpha)"])
        #expect(IDPrefixResolver(workspace, kind: .tab).candidates.map(\.label) == ["/srv/a (project Alpha)"])
        #expect(
            IDPrefixResolver(workspace, kind: .favorite).candidates.map(\.label) == ["Home  /home/x", "Work  /work"])
    }
}
