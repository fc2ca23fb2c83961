import FoundationEssentials
import StateStore
import StateStoreS3
import WorkspaceModel
import WorkspaceStorage

extension OfflineTools {
    /// The replica's part of `workspaced verify`: restores its newest state into a directory of its own under
    /// `temporaryDirectory` (every object's SHA-256 checked, the chain followed), loads it and replays its journal in
    /// memory as a start would, then removes the directory. Returns what it found under the replica's URL; a replica
    /// that holds nothing yet is whole.
    package static func verifyReplica(
        connection: ReplicaConnection, url: String, schema: StateSchema<Workspace> = WorkspaceSchema.shipped,
        temporaryDirectory: String = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
    ) -> ScrubFinding {
        let parent = temporaryDirectory.hasSuffix("/") ? temporaryDirectory : temporaryDirectory + "/"
        let directory = parent + "workspaced-verify-\(UUID())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            return ScrubFinding(path: url, problem: "cannot create \(directory) to restore into: \(error)")
        }
        let path = statePath(inStateDirectory: directory)
        let report: ReplicaRestoreReport
        do {
            report = try ReplicaRestore.restore(from: connection.target, stateFilePath: path, digest: .crypto)
        } catch {
            if error.replicaIsEmpty {
                return ScrubFinding(path: url, problem: nil, detail: "holds nothing yet")
            }
            return ScrubFinding(path: url, problem: "\(error)")
        }
        let file = readOnlyFile(path, schema: schema)
        do {
            let loaded = try file.load()
            let replay = try file.replayingJournal(WorkspaceChange.self, onto: loaded).replay
            guard replay.keptAside.isEmpty, replay.revision == report.revision else {
                return ScrubFinding(
                    path: url,
                    problem: "its newest state, restored, reaches revision \(replay.revision) of \(report.revision) "
                        + "(\(replay.stopReason ?? "segments kept aside"))")
            }
        } catch {
            return ScrubFinding(path: url, problem: "its newest state, restored, does not load: \(error)")
        }
        var detail =
            "lineage \(report.lineage), revision \(report.revision), \(report.objectsRead) object(s) and "
            + "\(report.bytesRead) bytes, every SHA-256 checked and the state loaded"
        if let stopped = report.stoppedEarly { detail += " (stopped early: \(stopped))" }
        return ScrubFinding(path: url, problem: nil, detail: detail)
    }
}
