import FoundationEssentials
import StateStore
import StateStoreS3
import Systemd
import WorkspaceAPI

extension OfflineTools {
    /// `workspaced restore`: the state of `point` from the replica into `stateDirectory`, which must hold no state
    /// (a state file, a journal, a history) unless `force`, which first moves everything but the lock file into
    /// `replaced-<time>/` beside them. Takes the state's lock, so a running daemon is refused (75). Prints the
    /// lineage, revision and time restored; the next start replays the restored journal.
    package static func replicaRestore(
        connection: ReplicaConnection, url: String, at point: ReplicaRestorePoint, stateDirectory: String,
        force: Bool, now: Date = Date()
    ) -> Outcome {
        let fileSystem = PosixFileSystem()
        do {
            try Daemon.createDirectory(stateDirectory)
        } catch {
            return Outcome(text: "restore: \(error)", status: ExitStatus.cannotCreate.rawValue)
        }
        let statePath = statePath(inStateDirectory: stateDirectory)
        let lockPath = stateDirectory + "/." + PathText.lastComponent(of: statePath) + ".lock"
        let lock: Int32
        do {
            lock = try fileSystem.lockFile(lockPath, mode: 0o600)
        } catch {
            return Outcome(
                text:
                    "restore: the state in \(stateDirectory) is in use (is workspaced running? stop it first): \(error)",
                status: ExitStatus.temporaryFailure.rawValue)
        }
        defer { try? fileSystem.close(lock, path: lockPath) }
        let lockName = PathText.lastComponent(of: lockPath)
        let present = ((try? fileSystem.contentsOfDirectory(stateDirectory)) ?? []).filter { $0 != lockName }.sorted()
        var diagnostics: [String] = []
        if !present.isEmpty {
            guard force else {
                return Outcome(
                    text: "restore: \(stateDirectory) is not empty (\(present.prefix(5).joined(separator: ", "))"
                        + "\(present.count > 5 ? ", …" : "")); a restore writes into an empty state directory, or "
                        + "with --force moves what is there aside first",
                    status: ExitStatus.cannotCreate.rawValue)
            }
            let stamp = now.ISO8601Format().filter { $0 != ":" }
            let aside = stateDirectory + "/replaced-" + stamp
            do {
                try fileSystem.createDirectory(aside, mode: 0o700)
                for name in present { try fileSystem.rename(stateDirectory + "/" + name, to: aside + "/" + name) }
                try fileSystem.fsyncDirectory(stateDirectory)
            } catch {
                return Outcome(
                    text: "restore: cannot move the files of \(stateDirectory) aside into \(aside): \(error)",
                    status: ExitStatus.cannotCreate.rawValue)
            }
            diagnostics.append("moved \(present.count) file(s) of \(stateDirectory) aside into \(aside)")
        }
        do {
            let report = try ReplicaRestore.restore(
                from: connection.target, stateFilePath: statePath, at: point, fileSystem: fileSystem, digest: .crypto)
            diagnostics += StateDirectoryOwner.handBack(stateDirectory)
            var text = "restored \(statePath) from \(url): lineage \(report.lineage), revision \(report.revision)"
            if let time = report.time { text += ", \(time.formatted(.iso8601))" }
            text +=
                "\n  snapshot of revision \(report.snapshotRevision), \(report.segmentsWritten.count) journal "
                + "segment(s) the next start replays; \(report.objectsRead) object(s), \(report.bytesRead) bytes, "
                + "every SHA-256 checked"
            if let stopped = report.stoppedEarly { text += "\n  stopped early: \(stopped)" }
            return Outcome(text: text, status: 0, diagnostics: diagnostics.joined(separator: "\n"))
        } catch {
            return Outcome(
                text: "\(error)", status: ExitStatus.dataError.rawValue,
                diagnostics: diagnostics.joined(separator: "\n"))
        }
    }

    /// `workspaced replica takeover`: writes this state directory's installation into the replica's lease, so that
    /// its daemon replicates there from its next pass; the installation that held it writes nothing after its
    /// next renewal.
    package static func replicaTakeOver(
        connection: ReplicaConnection, url: String, stateDirectory: String
    ) -> Outcome {
        let installation: String
        do {
            installation = try ReplicaInstallation.id(stateDirectory: stateDirectory)
        } catch {
            return Outcome(
                text: "replica takeover: cannot read or record this installation's id in \(stateDirectory): \(error)",
                status: ExitStatus.cannotCreate.rawValue)
        }
        let previous = (try? connection.target.read(ReplicaLayout.lease))?.flatMap { ReplicaLease(bytes: $0.bytes) }
        let replicator = Replicator(
            stateFilePath: statePath(inStateDirectory: stateDirectory), target: connection.target,
            configuration: ReplicatorConfiguration(installation: installation))
        do {
            try replicator.takeOver()
        } catch {
            return Outcome(text: "replica takeover: \(error)", status: ExitStatus.temporaryFailure.rawValue)
        }
        let from =
            previous.map { " from \($0.installation) (\($0.host), renewed \($0.renewed.formatted(.iso8601)))" } ?? ""
        return Outcome(text: "the lease of \(url) is now held by \(installation)\(from)", status: 0)
    }

    /// The replica of `settings` as `workspaced check` shows it: who holds the lease, the newest lineage and
    /// revision its manifest names, or why it cannot be read. Reads only.
    package static func replicaSummary(_ settings: ReplicaSettings) -> String {
        let url = settings.location.description
        let connection: ReplicaConnection
        do {
            connection = try ReplicaConnection.open(settings)
        } catch {
            return "replica: \(url): \(error)"
        }
        defer { connection.close() }
        var lines = ["replica: \(url) (\(settings.encryption.rawValue))"]
        do {
            if let lease = try connection.target.read(ReplicaLayout.lease).flatMap({ ReplicaLease(bytes: $0.bytes) }) {
                lines.append(
                    "  lease: held by \(lease.installation) (\(lease.host)), renewed \(lease.renewed.formatted(.iso8601))"
                )
            } else {
                lines.append("  lease: nobody holds it")
            }
            if let found = try connection.target.read(ReplicaLayout.manifest) {
                if let manifest = try? JSONDecoder.iso8601.decode(ReplicaManifest.self, from: found.bytes) {
                    lines.append(
                        "  newest: lineage \(manifest.lineage), revision \(manifest.revision)"
                            + (manifest.revisionTime.map { " (\($0.formatted(.iso8601)))" } ?? "")
                            + ", written by \(manifest.installation)")
                } else {
                    lines.append("  newest: manifest.json does not read")
                }
            } else {
                lines.append("  newest: nothing replicated yet")
            }
        } catch {
            lines.append("  cannot read it: \(error)")
        }
        return lines.joined(separator: "\n")
    }
}

extension JSONDecoder {
    /// A decoder of ISO 8601 dates, as the replica's JSON objects are written.
    fileprivate static var iso8601: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
