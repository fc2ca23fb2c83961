import Glibc
import Systemd
import Testing

@Suite struct NotifyFieldTests {
    @Test func assignmentsFollowTheProtocol() {
        #expect(NotifyField.ready.assignment == "READY=1")
        #expect(NotifyField.status("up").assignment == "STATUS=up")
        #expect(NotifyField.stopping.assignment == "STOPPING=1")
        #expect(NotifyField.reloading.assignment == "RELOADING=1")
        #expect(NotifyField.watchdog.assignment == "WATCHDOG=1")
        #expect(NotifyField.monotonicMicroseconds(42).assignment == "MONOTONIC_USEC=42")
        #expect(NotifyField.extendTimeout(microseconds: 2_500_000).assignment == "EXTEND_TIMEOUT_USEC=2500000")
        #expect(NotifyField.errno(28).assignment == "ERRNO=28")
    }

    @Test func statusStaysOnOneLine() {
        #expect(NotifyField.status("a\nb\r\nc").assignment == "STATUS=a b c")
    }

    @Test func fieldsOfOneCallShareADatagram() throws {
        let notifier = RecordingNotifier()
        try notifier.ready(status: "started")
        let before = monotonicMicroseconds()
        try notifier.reloading(status: "reloading")
        let after = monotonicMicroseconds()
        try notifier.ready()
        try notifier.stopping()
        try notifier.extendTimeout(by: .microseconds(1500) + .nanoseconds(1))
        try notifier.failure(errno: 5, status: "disk failed")
        var datagrams = notifier.datagrams
        // RELOADING=1 carries the monotonic time of the request in the same datagram.
        let reload = datagrams.remove(at: 1).split(separator: "\n").map(String.init)
        #expect(reload.count == 3 && reload[0] == "RELOADING=1" && reload[2] == "STATUS=reloading")
        let stamp = reload.count == 3 ? UInt64(reload[1].dropFirst("MONOTONIC_USEC=".count)) : nil
        #expect(reload.count == 3 && reload[1].hasPrefix("MONOTONIC_USEC="))
        #expect(stamp.map { (before...after).contains($0) } == true, "\(reload) not within [\(before), \(after)]")
        #expect(
            datagrams == [
                "READY=1\nSTATUS=started", "READY=1", "STOPPING=1", "EXTEND_TIMEOUT_USEC=1501",
                "STATUS=disk failed\nERRNO=5",
            ])
    }

    @Test func recorderCanBeMadeToFail() throws {
        let notifier = RecordingNotifier()
        notifier.failSends(with: .send(errno: 111, message: "WATCHDOG=1"))
        #expect(throws: NotifyError.send(errno: 111, message: "WATCHDOG=1")) { try notifier.watchdog() }
        #expect(notifier.messages.isEmpty)
        notifier.failSends(with: nil)
        try notifier.status("back")
        #expect(notifier.messages == [[.status("back")]])
        #expect(throws: NotifyError.empty) { try notifier.send([]) }
    }

    @Test func errorDescriptionNamesMessageAndErrno() {
        #expect(
            NotifyError.send(errno: 2, message: "READY=1\nSTATUS=up").description
                == #"sd_notify failed (errno 2) for "READY=1\nSTATUS=up""#)
    }
}

/// `CLOCK_MONOTONIC` now, in microseconds (the clock `MONOTONIC_USEC` uses).
func monotonicMicroseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
}
