import FoundationEssentials
import Logging
import StateStore
import Systemd

extension RunningDaemon {
    /// Re-reads the configuration on SIGHUP: RELOADING=1, then READY=1 with a STATUS saying what happened. That line
    /// keeps the load summary (the ready line, with the reload appended), and while saves fail it stays the failing
    /// line.
    ///
    /// A bad configuration keeps the old one in force and says so in STATUS and the journal. The log level and
    /// the save timings and the access lists apply at once; the state directory, the socket path and the request body
    /// limit (`api.maximumBodyBytes`, fixed when the server starts) need a restart.
    package func reload() async {
        send { try notifier.reloading(status: "reloading configuration") }
        let new: DaemonConfiguration
        do {
            new = try await ConfigurationLoader.load(daemon.sources)
        } catch {
            logger.warning(
                "configuration rejected, keeping the previous one: \(error)",
                metadata: DaemonEvent.configRejected.metadata(["error": "\(error)"]))
            let line = daemon.statusLine.replaceNormal(
                readyStatus()
                    + "; configuration rejected at \(SaveStatusLine.clock(Date())) UTC (\(error)); running with the "
                    + "previous one")
            send { try notifier.ready(status: line) }
            return
        }
        let old = daemon.current.withLock { configuration -> DaemonConfiguration in
            let old = configuration
            configuration.logLevel = new.logLevel
            configuration.saveDebounce = new.saveDebounce
            configuration.saveMaximumDelay = new.saveMaximumDelay
            configuration.corruptFilePolicy = new.corruptFilePolicy
            configuration.backupsKept = new.backupsKept
            configuration.access = new.access
            configuration.ignoredKeys = new.ignoredKeys
            return old
        }
        daemon.logIgnoredKeys(new.ignoredKeys)
        daemon.logLevel.current = new.logLevel
        state.reconfigure(
            PersistenceConfiguration(debounce: new.saveDebounce, maximumDelay: new.saveMaximumDelay))
        api.secrets.store?.state.reconfigure(
            PersistenceConfiguration(debounce: new.saveDebounce, maximumDelay: new.saveMaximumDelay))
        var pending: [String] = []
        if new.stateDirectory != old.stateDirectory { pending.append("stateDirectory") }
        if new.controlSocketPath != old.controlSocketPath { pending.append("controlSocket") }
        if new.apiMaximumBodyBytes != old.apiMaximumBodyBytes {
            pending.append(ConfigurationKey.apiMaximumBodyBytes.name)
        }
        if new.apiMaximumConnections != old.apiMaximumConnections {
            pending.append(ConfigurationKey.apiMaximumConnections.name)
        }
        if new.apiRequestTimeout != old.apiRequestTimeout { pending.append(ConfigurationKey.apiRequestTimeout.name) }
        if !pending.isEmpty {
            let names = pending.joined(separator: ", ")
            logger.warning("\(names) change only on restart")
        }
        let summary = "log level \(new.logLevel), debounce \(new.saveDebounce), maximum delay \(new.saveMaximumDelay)"
        logger.notice(
            "configuration reloaded: \(summary)",
            metadata: DaemonEvent.configReloaded.metadata([
                "log_level": "\(new.logLevel)", "debounce": "\(new.saveDebounce)",
            ]))
        events.publish(.configReloaded(logLevel: "\(new.logLevel)"))
        // The load summary stays: the ready line again, noting the reload (or the failing line while saves fail).
        let line = daemon.statusLine.replaceNormal(
            readyStatus()
                + "; configuration reloaded at \(SaveStatusLine.clock(Date())) UTC (log level \(new.logLevel))")
        send { try notifier.ready(status: line) }
    }
}
