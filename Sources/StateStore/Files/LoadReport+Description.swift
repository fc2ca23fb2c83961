import FoundationEssentials

extension LoadReport: CustomStringConvertible {
    /// The report for a person, one fact per line: the ``summary``, then the steps (`1 → 2 → 3`), the fields
    /// defaulted and taken back, the unknown fields kept, a content checksum that does not match, warnings,
    /// repairs, the salvage, the quarantine, the import, the backup a migrated file gets at its first save, the
    /// lineage and the time. Lines with nothing to say are left out.
    ///
    /// ```text
    /// migrated version 1 to 2 (50 bytes)
    ///   steps: 1 → 2
    ///   defaulted: fontSize (1)
    ///   backup: the version 1 bytes go to settings.json.v1.bak at the first save
    ///   lineage: 3f2a9c0d1e4b5a6f, revision 0 (new: the file stores no lineage)
    ///   took: 0.4 ms
    /// ```
    public var description: String {
        var lines = [summary]
        if !stepsApplied.isEmpty {
            let versions = [stepsApplied[0].lowerBound] + stepsApplied.map(\.upperBound)
            lines.append("steps: " + versions.map(String.init).joined(separator: " → "))
        }
        if !fieldsDefaulted.isEmpty { lines.append("defaulted: " + Self.counted(fieldsDefaulted)) }
        if !fieldsTakenBack.isEmpty { lines.append("taken back: " + Self.counted(fieldsTakenBack)) }
        if !unknownKeysKept.isEmpty { lines.append("unknown fields kept: " + Self.counted(unknownKeysKept)) }
        if !unknownKeysDropped.isEmpty {
            lines.append("unknown fields dropped: " + Self.counted(unknownKeysDropped))
        }
        if case .mismatch(let recorded, let computed) = contentChecksum {
            lines.append(
                "changed outside the store since its last save: content checksum \(computed), \(recorded) recorded")
        }
        lines += warnings.map { "warning: " + $0 }
        lines += repairs.map { "repair: " + $0 }
        if let salvage {
            lines.append("salvage: \(salvage.reason)")
            lines += salvage.details.map { "  " + $0 }
        }
        if let quarantine {
            lines.append(
                "quarantined (\(quarantine.policy.rawValue)): \(quarantine.reason); moved to \(quarantine.movedTo)")
        }
        if let importResult { lines.append("imported from \(importResult.sourcePath)") }
        if !stepsApplied.isEmpty || !unknownKeysDropped.isEmpty, salvage == nil, let storedVersion {
            let name = PathText.lastComponent(of: path)
            lines.append(
                "backup: the version \(storedVersion) bytes go to \(name).v\(storedVersion).bak at the first save")
        }
        if !temporaryFilesRemoved.isEmpty {
            lines.append("temporary files removed: " + temporaryFilesRemoved.joined(separator: ", "))
        }
        if let crashGuardProblem { lines.append("crash-loop guard off for this load: \(crashGuardProblem)") }
        let lineageLine = "lineage: \(lineage.rawValue), revision \(revision)"
        lines.append(lineageBreak.map { lineageLine + " (new: \($0))" } ?? lineageLine)
        lines.append("took: \(Self.milliseconds(timings.total)) ms")
        return ([lines[0]] + lines.dropFirst().map { "  " + $0 }).joined(separator: "\n")
    }

    /// `a (2), b.c (1)`, sorted by path.
    private static func counted(_ counts: [String: Int]) -> String {
        counts.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
    }

    /// A duration in milliseconds with one decimal.
    private static func milliseconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        return DecimalText.fixed(value, places: 1)
    }
}
