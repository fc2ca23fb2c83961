#if canImport(Glibc)
import Glibc
#endif

/// The instant the peer of a connected Unix stream socket ended the connection, seen by `poll` on the calling
/// thread without reading anything: the kernel reports the hang-up as soon as the peer closes, even with unread
/// bytes waiting, so a test can time when a server closed a connection whose client stopped reading, and the
/// client stays stalled meanwhile. `nil` if the peer had not hung up within `timeout`.
///
/// Blocking: call it on a thread of its own (``StartedOffThePool``), started before the action that should end
/// the connection, so that the instant is the server's and not the moment a test task got resumed.
package func hangUpInstant(of descriptor: Int32, timeout: Duration) -> ContinuousClock.Instant? {
    // POLLRDHUP (0x2000, Linux) is only declared with _GNU_SOURCE. A peer that closed sets it and POLLHUP; one
    // that reset the connection (it closed with our bytes unread) also sets POLLERR.
    let rdhup: Int16 = 0x2000
    let ended = rdhup | Int16(POLLHUP) | Int16(POLLERR)
    let deadline = ContinuousClock.now + timeout
    while true {
        let left = deadline - ContinuousClock.now
        guard left > .zero else { return nil }
        let milliseconds = Int32(min((left / .milliseconds(1)).rounded(.up), 60_000))
        var entry = pollfd(fd: descriptor, events: rdhup, revents: 0)
        let ready = poll(&entry, 1, milliseconds)
        if ready > 0 && entry.revents & ended != 0 { return .now }
        if ready < 0 && errno != EINTR { return nil }
        if ready > 0 && entry.revents & Int16(POLLNVAL) != 0 { return nil }
    }
}
