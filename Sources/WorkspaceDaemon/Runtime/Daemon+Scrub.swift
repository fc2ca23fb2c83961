import FoundationEssentials
import StateStore
import WorkspaceModel

extension Daemon {
    /// The scrub of `scrub.intervalHours` over the state file at `statePath` (``DaemonScrub``): its backups, the
    /// history of the state's current lineage and, when replicating, the replica's newest state. Each pass opens
    /// the files read-only, without the state's lock.
    func makeScrub(
        statePath: String, lineage: @escaping @Sendable () -> Lineage, replica: DaemonReplica?
    ) -> DaemonScrub {
        let schema = environment.schema
        let hours = configuration.scrubIntervalHours
        let replicaURL = configuration.replica?.location.description
        return DaemonScrub(interval: hours > 0 ? .seconds(hours * 3600) : nil, logger: logger) {
            let file = OfflineTools.readOnlyFile(statePath, schema: schema)
            var findings = ScrubChecks.stateFile(at: statePath).map { [$0] } ?? []
            do {
                findings += try ScrubChecks.backups(of: file, schema: schema)
            } catch {
                findings.append(ScrubFinding(path: file.directory, problem: "cannot list the backups: \(error)"))
            }
            findings += ScrubChecks.history(of: file, lineage: lineage())
            if let replica, let replicaURL {
                findings.append(
                    OfflineTools.verifyReplica(connection: replica.connection, url: replicaURL, schema: schema))
            }
            return findings
        }
    }
}
