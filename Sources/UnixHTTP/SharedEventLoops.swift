import Dispatch
import NIOPosix

/// The event loops ``HTTPServer`` and ``UnixHTTPClient`` use unless given others: NIO's shared
/// `MultiThreadedEventLoopGroup.singleton`, one thread per core, made on first use.
public enum SharedEventLoops {
    /// Makes the shared event loops on a Dispatch worker, so that a program can have them while it does other
    /// start-up work: their first use waits until every thread runs (about 1.5 ms on a 2-core machine), and a
    /// first use while they are being made waits only for the rest.
    public static func startInBackground() {
        DispatchQueue.global(qos: .userInitiated).async { _ = MultiThreadedEventLoopGroup.singleton }
    }
}
