import NIOCore
import Synchronization

/// How many accepted connections are open, for ``HTTPServerConfiguration/maximumConnections``; a connection
/// refused over the limit is not counted.
final class ConnectionCount: Sendable {
    private let value = Atomic(0)

    /// Counts `channel` until it closes.
    func add(_ channel: any Channel) {
        value.add(1, ordering: .relaxed)
        channel.closeFuture.whenComplete { _ in self.value.subtract(1, ordering: .relaxed) }
    }

    /// How many connections are open now.
    var current: Int { value.load(ordering: .relaxed) }
}
