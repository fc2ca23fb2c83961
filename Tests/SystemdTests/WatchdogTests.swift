import Synchronization
import Systemd
import TestSupport
import Testing

@Suite struct WatchdogTests {
    @Test func pingIntervalIsHalfTheTimeout() {
        #expect(WatchdogConfiguration(timeout: .seconds(30)).pingInterval == .seconds(15))
    }

    @Test func pingsOnlyWhileHealthy() async throws {
        let notifier = RecordingNotifier()
        let healthy = Atomic<Bool>(true)
        let unhealthyRounds = Atomic<Int>(0)
        let watchdog = Watchdog(
            configuration: WatchdogConfiguration(timeout: .milliseconds(40)), notifier: notifier,
            observer: { event in if event == .unhealthy { unhealthyRounds.add(1, ordering: .relaxed) } },
            healthCheck: { healthy.load(ordering: .relaxed) }
        )
        watchdog.start()
        #expect(watchdog.isRunning)
        #expect(await eventually { notifier.messages.count >= 3 })

        healthy.store(false, ordering: .relaxed)
        #expect(await eventually { unhealthyRounds.load(ordering: .relaxed) >= 1 })
        let pingsWhenUnhealthy = notifier.messages.count
        // Rounds, not wall time: the machine may be loaded.
        #expect(await eventually { unhealthyRounds.load(ordering: .relaxed) >= 4 })
        #expect(notifier.messages.count == pingsWhenUnhealthy)

        healthy.store(true, ordering: .relaxed)
        #expect(await eventually { notifier.messages.count > pingsWhenUnhealthy })
        // After stop, no new round starts: stop while unhealthy, so a round in flight cannot ping either.
        healthy.store(false, ordering: .relaxed)
        let roundsBeforeStop = unhealthyRounds.load(ordering: .relaxed)
        #expect(await eventually { unhealthyRounds.load(ordering: .relaxed) > roundsBeforeStop })
        let pingsAtStop = notifier.messages.count
        watchdog.stop()
        #expect(!watchdog.isRunning)
        // Time under test: several watchdog intervals in which no ping may come.
        try await Task.sleep(for: .milliseconds(100))
        #expect(notifier.messages.count == pingsAtStop)
        #expect(Set(notifier.datagrams) == ["WATCHDOG=1"])
    }

    @Test func hangingHealthCheckStopsThePings() async throws {
        let notifier = RecordingNotifier()
        let calls = Atomic<Int>(0)
        let watchdog = Watchdog(
            configuration: WatchdogConfiguration(timeout: .milliseconds(20)), notifier: notifier,
            healthCheck: {
                if calls.add(1, ordering: .relaxed).newValue > 2 {
                    // Time under test: a health check that hangs.
                    try? await Task.sleep(for: .seconds(3600))
                }
                return true
            }
        )
        watchdog.start()
        #expect(await eventually { calls.load(ordering: .relaxed) >= 3 })
        // Time under test: several watchdog intervals in which no ping may come.
        try await Task.sleep(for: .milliseconds(100))
        #expect(notifier.messages.count == 2)
        watchdog.stop()
    }

    @Test func sendFailuresAreReported() async throws {
        let notifier = RecordingNotifier()
        notifier.failSends(with: .send(errno: 111, message: "WATCHDOG=1"))
        let events = Mutex<[Watchdog.Event]>([])
        let watchdog = Watchdog(
            configuration: WatchdogConfiguration(timeout: .milliseconds(20)), notifier: notifier,
            observer: { event in events.withLock { $0.append(event) } },
            healthCheck: { true }
        )
        watchdog.start()
        #expect(await eventually { !events.withLock { $0.isEmpty } })
        watchdog.stop()
        #expect(events.withLock { $0.first } == .pingFailed(.send(errno: 111, message: "WATCHDOG=1")))
    }
}
