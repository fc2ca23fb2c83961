import FoundationEssentials

/// Brings a state back from a replica into a directory that has no state: the newest snapshot at or
/// before the point asked for, written as the state file, and the journal segments after it, cut after the last
/// change the point includes, written beside it. The next load replays them as it replays a journal after a crash,
/// so a restore needs no model and checks what a load checks.
///
/// Every object's SHA-256 is compared with the one in its name before its bytes are used; a mismatch stops the
/// restore with the object's name and writes nothing. A segment whose pieces stop short (a gap: a piece never
/// uploaded) or whose last record is torn is cut at its last whole record, and the restore says where it stopped.
public enum ReplicaRestore {
    /// Restores the state of `point` from `target` as the state file at `stateFilePath`, with its journal, checking
    /// objects with `digest`.
    ///
    /// - Throws: ``ReplicaRestoreError`` when the directory already has a state file or a journal (move them aside
    ///   first), when the replica has no manifest or no snapshot at or before the point, when an object's bytes do
    ///   not match their SHA-256, or when the store or the directory fail. Nothing is written before every object
    ///   needed is read and checked.
    public static func restore(
        from target: any ReplicaTarget, stateFilePath: String, at point: ReplicaRestorePoint = .latest,
        fileSystem: any FileSystem = PosixFileSystem(), mode: UInt32 = 0o600, digest: ReplicaDigest = .builtIn
    ) throws(ReplicaRestoreError) -> ReplicaRestoreReport {
        let stateDirectory = PathText.deletingLastComponent(of: stateFilePath)
        let fileName = PathText.lastComponent(of: stateFilePath)
        try refuseExistingState(stateFilePath, directory: stateDirectory, fileName: fileName, fileSystem)
        var reader = ReplicaReader(target: target, digest: digest)
        let plan = try reader.plan(point)
        // Write the state file first: a crash after it leaves an older state, whole, never segments without it.
        let writer = DurableWriter(fileSystem: fileSystem, mode: mode)
        do {
            try writer.write(plan.snapshot, to: stateFilePath)
            var written: [String] = []
            for segment in plan.segments {
                let path =
                    stateDirectory + "/"
                    + JournalSegmentFormat.segmentName(fileName: fileName, baseRevision: segment.base)
                try writer.write(segment.bytes, to: path)
                written.append(path)
            }
            var report = plan.report
            report.segmentsWritten = written
            report.objectsRead = reader.objectsRead
            report.bytesRead = reader.bytesRead
            return report
        } catch {
            throw ReplicaRestoreError(object: stateFilePath, reason: "cannot write: \(error)")
        }
    }

    private static func refuseExistingState(
        _ path: String, directory: String, fileName: String, _ fileSystem: any FileSystem
    ) throws(ReplicaRestoreError) {
        if fileSystem.exists(path) {
            throw ReplicaRestoreError(
                object: path, reason: "a state file is there; a restore writes only where none is")
        }
        guard fileSystem.exists(directory) else {
            throw ReplicaRestoreError(object: directory, reason: "the state directory does not exist")
        }
        let names: [String]
        do {
            names = try fileSystem.contentsOfDirectory(directory)
        } catch {
            throw ReplicaRestoreError(object: directory, reason: "cannot list: \(error)")
        }
        if let segment = names.first(where: {
            JournalSegmentFormat.baseRevision(ofSegment: $0, fileName: fileName) != nil
        }) {
            throw ReplicaRestoreError(
                object: directory + "/" + segment, reason: "a journal is there; a restore writes only where none is")
        }
    }
}
