import FoundationEssentials

/// `workspaced check` output: lines for people, or the ``CheckReport`` as JSON.
enum CheckRendering {
    /// One finding per line.
    static func text(_ report: CheckReport) -> String {
        var output = [
            "file: \(report.file)"
                + (report.noStateFile
                    ? " (no such file: a start serves the initial state with the journal below)" : ""),
            "stored version: \(report.storedVersion.map(String.init) ?? (report.noStateFile ? "none" : "?"))",
            "target version: \(report.targetVersion)",
        ]
        if report.unfinishedLoads > 0 {
            output.append(
                "unfinished loads: \(report.unfinishedLoads) (loads of this file that crashed, were killed or timed "
                    + "out; at crashedLoadLimit, default 3, the next start sets it aside)")
        }
        if let crash = report.lastCrashedLoad {
            output.append(
                "last set aside: \(crash.movedTo) at \(crash.at.formatted(.iso8601)), after \(crash.attempts) "
                    + "unfinished loads; "
                    + (crash.restoredFrom.map { "the state came from backup \($0)" } ?? "the state started empty"))
        }
        switch report.verdict {
        case .newer:
            output.append("problem: \(report.problem ?? "newer than this release")")
            return output.joined(separator: "\n")
        case .corrupt:
            output.append("problem: corrupt: \(report.problem ?? "unreadable")")
            output.append("salvage: not possible; the salvage policy would quarantine the file and start empty")
            return output.joined(separator: "\n")
        case .loadable, .salvageable:
            break
        }
        output.append("steps that would run: " + (report.steps.isEmpty ? "none" : report.steps.joined(separator: ", ")))
        if let lowest = report.lowestVersion {
            output.append(
                lowest < report.targetVersion
                    ? "lowest version: \(lowest) (workspaced migrate --to \(lowest) writes it for an older release)"
                    : "lowest version: \(lowest) (no way down to an older version)")
        }
        output.append(
            "unknown keys kept: "
                + (report.unknownKeysKept.isEmpty
                    ? "none"
                    : report.unknownKeysKept.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }
                        .joined(separator: ", ")))
        for (field, count) in report.fieldsDefaulted.sorted(by: { $0.key < $1.key }) {
            output.append("default: \(field) for \(count) record(s)")
        }
        for (field, count) in report.fieldsTakenBack.sorted(by: { $0.key < $1.key }) {
            output.append("taken back from a rollback: \(field) for \(count) record(s)")
        }
        if let changed = report.changedOutsideDaemon {
            output.append(
                "changed outside the daemon since its last save: its content checksum is \(changed.computed), the "
                    + "save recorded \(changed.recorded) (edited by hand, say); it loads as it is")
        }
        output += report.warnings.map { "warning: \($0)" }
        output += report.repairs.map { "repair: \($0)" }
        if let journal = report.journal {
            output.append(
                journal.changesToReplay == 0
                    ? "journal: no change to replay (\(journal.segments) segment(s), \(journal.bytes) bytes)"
                    : "journal: \(journal.changesToReplay) change(s) a start would replay, revision "
                        + "\(journal.fromRevision) to \(journal.toRevision) (\(journal.segments) segment(s), "
                        + "\(journal.bytes) bytes)")
            if journal.tornBytes > 0 {
                output.append("journal: a last record of \(journal.tornBytes) bytes cut short by a crash (dropped)")
            }
            output += journal.wouldKeepAside.map { "journal: a start would keep aside \($0)" }
        }
        output += report.history?.lines ?? []
        guard let salvage = report.salvage else {
            output.append(
                report.noStateFile
                    ? "problems: none; the next snapshot writes the state file (the daemon's, within the maximum delay)"
                    : "problems: none; the file is loadable")
            return output.joined(separator: "\n")
        }
        output.append("problem: the file does not load as it is: \(report.problem ?? "")")
        output.append(
            "salvage: would keep everything else; \(salvage.droppedRecords.count) record(s) dropped, "
                + "\(salvage.coercedFields.count) field(s) coerced, \(salvage.defaultedFields.count) field(s) "
                + "defaulted; the original would be kept as <file>.corrupt-<time>")
        for record in salvage.droppedRecords {
            output.append("would drop: \(record.path)\(record.id.map { " (id \($0))" } ?? ""): \(record.reason)")
        }
        for field in salvage.coercedFields {
            output.append("would coerce: \(field.path) from \(field.from) to \(field.to)")
        }
        for field in salvage.defaultedFields {
            output.append("would default: \(field.path): \(field.reason)")
        }
        return output.joined(separator: "\n")
    }

    /// The report as indented JSON with sorted keys.
    static func json(_ report: CheckReport) -> String {
        OfflineJSON.text(report)
    }
}
