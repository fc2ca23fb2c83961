import Foundation
import Synchronization
import WorkspaceAPI
import WorkspaceClient

/// Clients that add favorites over the control socket (the real `WorkspaceClient`) until told to stop, every other
/// one durable, and remember which names were acknowledged and how.
final class TortureClients: Sendable {
    /// Names acknowledged with 201: all of them, and those acknowledged durable.
    struct Acknowledged: Sendable {
        var all: Set<String> = []
        var durable: Set<String> = []
    }

    private let acknowledged = Mutex(Acknowledged())
    private let stopped = Atomic<Bool>(false)
    private let socketPath: String
    private let round: Int

    init(socketPath: String, round: Int) {
        self.socketPath = socketPath
        self.round = round
    }

    /// What was acknowledged so far.
    var snapshot: Acknowledged { acknowledged.withLock { $0 } }

    /// Tells every client to stop after its current request.
    func stop() { stopped.store(true, ordering: .relaxed) }

    /// Runs `count` clients until ``stop()``; a refused or failed request is not acknowledged and the client goes on.
    func run(count: Int) async {
        await withTaskGroup(of: Void.self) { group in
            for client in 0..<count {
                group.addTask { await self.client(client) }
            }
        }
    }

    private func client(_ number: Int) async {
        let client = WorkspaceClient(socketPath: socketPath, timeout: .seconds(10))
        var sequence = 0
        while !stopped.load(ordering: .relaxed) {
            sequence += 1
            let name = "r\(round)-c\(number)-\(sequence)"
            let durable = sequence % 2 == 0
            do {
                _ = try await client.addFavorite(name: name, path: "/srv/\(name)", durable: durable)
                acknowledged.withLock { acknowledged in
                    acknowledged.all.insert(name)
                    if durable { acknowledged.durable.insert(name) }
                }
            } catch {
                // A pause before the next try while the daemon is down (killed or starting), not a wait for it.
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
    }
}
