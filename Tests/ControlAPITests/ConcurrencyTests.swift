import Foundation
import Testing
import WorkspaceAPI

@Suite("concurrent clients against the real daemon")
struct ConcurrencyTests {
    static let clients = 16
    /// 16 × 100 in `swift test`: about 1 s alone in a debug build on the 2-core machine (one connection per
    /// request), long enough for the 500 ms maximum save delay to write while the clients change; beside the rest
    /// of the suite, where every request waits its turn on the cooperative pool, about 4–5 s. More changes mostly
    /// lengthen the suite (16 × 300 took 9–12 s there). `CONTROL_API_CHANGES_PER_CLIENT=1000` runs the issue's
    /// figure, 16 × 1,000, for a long run.
    static let changesPerClient =
        Int(ProcessInfo.processInfo.environment["CONTROL_API_CHANGES_PER_CLIENT"] ?? "") ?? 100

    @Test("16 clients × many changes: every acknowledged change is in memory and on disk after SIGTERM")
    func everyAcknowledgedChangeSurvives() async throws {
        let daemon = try LiveDaemon(debounce: 50, maximumDelay: 500)
        try await daemon.start()
        let started = ContinuousClock.now
        let results = try await withThrowingTaskGroup(of: (projects: [String], favorites: [String]).self) { group in
            for clientIndex in 0..<Self.clients {
                group.addTask {
                    let client = daemon.client()
                    var projects: [String] = []
                    var favorites: [String] = []
                    for change in 0..<Self.changesPerClient {
                        let name = "c\(clientIndex)-\(change)"
                        if change.isMultiple(of: 2) {
                            let created = try await client.addFavorite(name: name, path: "/c/\(clientIndex)/\(change)")
                            favorites.append(try #require(created.value?.id.text).lowercased())
                        } else {
                            let created = try await client.createProject(name: name, layout: .single)
                            projects.append(try #require(created.value?.id.text).lowercased())
                        }
                    }
                    return (projects, favorites)
                }
            }
            var all: [(projects: [String], favorites: [String])] = []
            for try await result in group { all.append(result) }
            return all
        }
        let elapsed = ContinuousClock.now - started
        let acknowledgedProjects = Set(results.flatMap(\.projects))
        let acknowledgedFavorites = Set(results.flatMap(\.favorites))
        let total = Self.clients * Self.changesPerClient
        #expect(acknowledgedProjects.count + acknowledgedFavorites.count == total)
        print("ConcurrencyTests: \(total) changes from \(Self.clients) clients in \(elapsed)")

        let workspace = try await daemon.client().workspace()
        #expect(workspace.revision == UInt64(total))
        let inMemoryProjects = Set(workspace.workspace.projects.map { $0.id.text.lowercased() })
        let inMemoryFavorites = Set(workspace.workspace.favorites.map { $0.id.text.lowercased() })
        #expect(acknowledgedProjects.isSubset(of: inMemoryProjects))
        #expect(acknowledgedFavorites.isSubset(of: inMemoryFavorites))

        #expect(await daemon.stop() == 0)
        let onDiskProjects = daemon.idsOnDisk("projects")
        let onDiskFavorites = daemon.idsOnDisk("favorites")
        #expect(acknowledgedProjects.subtracting(onDiskProjects).isEmpty)
        #expect(acknowledgedFavorites.subtracting(onDiskFavorites).isEmpty)
        #expect(onDiskProjects.count + onDiskFavorites.count == total)
    }
}
