import NIOCore
import Synchronization

/// The open connections of a server, so shutdown can quiesce them and wait for them to close.
final class ConnectionRegistry: Sendable {
    private let channels = Mutex<[ObjectIdentifier: any Channel]>([:])

    /// Tracks a channel until it closes.
    func add(_ channel: any Channel) {
        let key = ObjectIdentifier(channel)
        channels.withLock { $0[key] = channel }
        channel.closeFuture.whenComplete { _ in
            _ = self.channels.withLock { $0.removeValue(forKey: key) }
        }
    }

    /// The channels open now.
    var open: [any Channel] {
        channels.withLock { Array($0.values) }
    }
}
