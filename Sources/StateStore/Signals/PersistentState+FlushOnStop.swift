#if canImport(Glibc)
import Glibc
#endif

extension PersistentState {
    /// Makes every accepted change durable before the process stops: on SIGTERM (systemd's stop) or SIGINT
    /// (Ctrl-C), ``close()`` (refuse further changes, save what is not on disk yet, synchronously), then exit with
    /// status 0, or 74 (`EX_IOERR`) when the save failed.
    ///
    /// Call it as soon as the state is loaded, before the program accepts its first change. The signals are taken
    /// from their default actions through Dispatch signal sources (``SignalSources``), with no window in which a
    /// signal is lost or kills the process unflushed; the flush runs on the sources' queue, a plain thread where it
    /// may block. A signal that came while the sources registered is handled before this returns.
    ///
    /// ```swift
    /// let state = PersistentState(file: file, loaded: try file.load())
    /// state.flushOnStop()
    /// ```
    ///
    /// - Parameters:
    ///   - signals: The stop signals; SIGTERM and SIGINT by default.
    ///   - exitsProcess: Whether the process exits after the flush (with ``StopFlushEvent/exitStatus``); `false`
    ///     leaves that to `observer`'s caller, e.g. a test.
    ///   - observer: Told of each step, on the sources' queue: to log it, or to tell systemd `STOPPING=1`.
    /// - Returns: The signal sources; they live as long as the process whether or not the value is kept.
    @discardableResult
    public func flushOnStop(
        signals: [Int32] = [SIGTERM, SIGINT], exitsProcess: Bool = true,
        observer: @escaping @Sendable (StopFlushEvent) -> Void = { _ in }
    ) -> SignalSources {
        SignalSources(
            signals, label: "StateStore.flushOnStop",
            handler: stopHandler(exitsProcess: exitsProcess, observer: observer))
    }

    /// The same flush and exit on sources installed earlier: for a program that takes its stop signals before it
    /// loads its state (a stop during a long load then does what the sources' first handler says), and hands them
    /// to the state once it exists.
    ///
    /// - Parameters:
    ///   - sources: The signal sources; every signal they receive from now on stops the process.
    ///   - exitsProcess: Whether the process exits after the flush (with ``StopFlushEvent/exitStatus``).
    ///   - observer: Told of each step, on the sources' queue.
    public func flushOnStop(
        using sources: SignalSources, exitsProcess: Bool = true,
        observer: @escaping @Sendable (StopFlushEvent) -> Void = { _ in }
    ) {
        sources.setHandler(stopHandler(exitsProcess: exitsProcess, observer: observer))
    }

    private func stopHandler(
        exitsProcess: Bool, observer: @escaping @Sendable (StopFlushEvent) -> Void
    ) -> @Sendable (Int32) -> Void {
        { [self] number in
            observer(.stopping(signal: number))
            let outcome: StopFlushEvent =
                switch Result(catching: { () throws(PersistenceError) in try close() }) {
                case .success: .flushed(signal: number, durableRevision: status.durableRevision)
                case .failure(let error): .flushFailed(signal: number, error: error)
                }
            observer(outcome)
            if exitsProcess, let status = outcome.exitStatus {
                exit(status)
            }
        }
    }
}
