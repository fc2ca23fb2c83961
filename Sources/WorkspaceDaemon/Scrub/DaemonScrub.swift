import CIOPriority
import Dispatch
import FoundationEssentials
import Glibc
import Logging
import StateStore
import Synchronization
import WorkspaceAPI

/// The daemon's scrub: every `scrub.intervalHours`, and on `POST /v1/scrub`, it reads every file a
/// restore would start from (``DaemonScrub/Pass``), checks each and reports what it found in `/v1/status`, the
/// metrics and the journal. It never deletes or rewrites a file, and never takes the state's lock: it reads files
/// only, on a thread of its own in the idle I/O and CPU classes, so the control API keeps the disk and the
/// processor first.
///
/// One pass at a time: a request during a pass gets that pass's report.
package final class DaemonScrub: Sendable {
    /// The checks of one pass, returning a finding per file (the replica included).
    package typealias Pass = @Sendable () -> [ScrubFinding]

    /// The time between scheduled passes; `nil` runs one only on request.
    let interval: Duration?
    /// The time from ``start()`` to the first scheduled pass.
    let firstDelay: Duration
    let pass: Pass
    let logger: Logger
    let state = Mutex(State())

    struct State {
        var running = false
        var stopped = false
        var started = false
        var waiters: [CheckedContinuation<ScrubReport, Never>] = []
        var last: ScrubReport?
        var lastSuccessAt: Date?
        var nextRunAt: Date?
        /// Bumped by every schedule, so that a superseded timer does nothing.
        var schedule = 0
    }

    /// A scrub running `pass` every `interval` (never when `nil`), the first `firstDelay` after ``start()``.
    package init(interval: Duration?, firstDelay: Duration = .seconds(300), logger: Logger, pass: @escaping Pass) {
        self.interval = interval
        self.firstDelay = firstDelay
        self.logger = logger
        self.pass = pass
    }

    /// Schedules the first pass, when passes are scheduled at all.
    package func start() {
        state.withLock { $0.started = true }
        if let interval { schedule(after: min(firstDelay, interval)) }
    }

    /// Stops scheduling passes; a pass under way finishes on its own thread (it only reads).
    package func stop() {
        state.withLock { state in
            state.stopped = true
            state.nextRunAt = nil
            state.schedule += 1
        }
    }

    /// Runs a pass now, or waits for the one under way, and returns its report.
    package func runNow() async -> ScrubReport {
        await withCheckedContinuation { continuation in
            let begin = state.withLock { state -> Bool in
                state.waiters.append(continuation)
                guard !state.running else { return false }
                state.running = true
                return true
            }
            if begin { beginPass() }
        }
    }

    /// The scrub in `GET /v1/status`.
    package var status: ScrubStatusResponse {
        let hours = interval.map { Int($0.components.seconds / 3600) } ?? 0
        return state.withLock { state in
            ScrubStatusResponse(
                intervalHours: hours, running: state.running, lastRunAt: state.last?.finishedAt,
                lastSuccessAt: state.lastSuccessAt,
                lastDurationSeconds: state.last.map {
                    Double($0.duration.components.seconds)
                        + Double($0.duration.components.attoseconds) / 1e18
                },
                filesChecked: state.last?.filesChecked ?? 0,
                damaged: (state.last?.damaged ?? []).map { .init(path: $0.path, reason: $0.problem ?? "") },
                nextRunAt: state.nextRunAt)
        }
    }

    private func schedule(after delay: Duration) {
        let (token, stopped) = state.withLock { state -> (Int, Bool) in
            state.schedule += 1
            if !state.stopped { state.nextRunAt = Date().addingTimeInterval(Self.seconds(delay)) }
            return (state.schedule, state.stopped)
        }
        guard !stopped else { return }
        DispatchQueue.global(qos: .background).asyncAfter(deadline: .now() + Self.seconds(delay)) { [self] in
            let begin = state.withLock { state -> Bool in
                guard state.schedule == token, !state.stopped, !state.running else { return false }
                state.running = true
                return true
            }
            if begin { beginPass() }
        }
    }

    /// Runs the pass on a thread of its own, put in the idle I/O class first (the thread ends with the pass, so
    /// no other work inherits the class).
    private func beginPass() {
        DedicatedThread.start { [self] in
            if wsd_ioprio_set_idle() != 0 {
                logger.debug("the scrub reads at the default I/O priority: ioprio_set failed (errno \(errno))")
            }
            // Checksums and JSON parsing take the processor too: on two cores the scrub must not take it from
            // the control API either.
            if wsd_sched_set_idle() != 0 {
                logger.debug("the scrub runs at the default CPU priority: sched_setscheduler failed (errno \(errno))")
            }
            let started = ContinuousClock.now
            let findings = pass()
            let report = ScrubReport(finishedAt: Date(), duration: ContinuousClock.now - started, findings: findings)
            finish(report)
        }
    }

    private func finish(_ report: ScrubReport) {
        log(report)
        let waiters = state.withLock { state -> [CheckedContinuation<ScrubReport, Never>] in
            state.running = false
            state.last = report
            if report.passed { state.lastSuccessAt = report.finishedAt }
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: report) }
        if let interval, state.withLock({ $0.started }) { schedule(after: interval) }
    }

    private func log(_ report: ScrubReport) {
        let seconds = DecimalText.fixed(Self.seconds(report.duration), places: 1)
        for damaged in report.damaged {
            logger.warning(
                "the scrub found \(damaged.path) damaged: \(damaged.problem ?? ""); nothing was changed",
                metadata: DaemonEvent.scrubFoundDamage.metadata([
                    "scrub_path": "\(damaged.path)", "reason": "\(damaged.problem ?? "")",
                ]))
        }
        if report.passed {
            logger.info(
                "scrub passed: \(report.filesChecked) file(s) read and checked in \(seconds) s",
                metadata: DaemonEvent.scrubPassed.metadata(["files_checked": "\(report.filesChecked)"]))
        } else {
            logger.warning(
                "scrub: \(report.damaged.count) of \(report.filesChecked) file(s) damaged (\(seconds) s)",
                metadata: ["files_checked": "\(report.filesChecked)", "damaged": "\(report.damaged.count)"])
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
