import Foundation

/// The history of issue 42 on generated workspaces (docs/benchmarks.md): the persistence workloads with the history
/// off and on (``HistoryOverhead``, goal on ÷ off ≤ 1.05), `model(atRevision:)` replaying 16 MiB of segments
/// against a load (``HistoryReadTiming``, goal ≤ 2), and the bytes renames at 10 a second take in the history
/// with how long the default bound keeps them (``HistoryFootprint``, ``HistoryRetention``).
struct HistoryBenchmark {
    /// Sizes of the overhead runs, in MB.
    let sizes: [Int]
    /// Blocks of the overhead runs (``HistoryOverhead``: each runs the workloads with the history off and on).
    let rounds: Int
    /// Size of the read, in MB; 0 skips it.
    let readMegabytes: Int
    /// Segment bytes the read replays.
    let replayBytes: Int
    /// Reads (and loads) timed.
    let readRounds: Int
    /// Sizes of the footprint runs, in MB (fractions allowed).
    let footprintMegabytes: [Double]
    /// Simulated seconds of each footprint run.
    let footprintSeconds: Int
    /// The history's bound in the footprint runs (the default, unless checking ``HistoryRetention``).
    var footprintMaximumBytes = 64 << 20
    /// Where the files are made: on a disk, not a tmpfs, or no fsync is measured.
    let directory: String

    /// The benchmark the command line's options describe (main.swift's usage).
    static func fromCommandLine(rounds: Int) -> Self {
        let footprint = option("footprint-megabytes") ?? "0.1,10"
        let replayMebibytes: Int = option("replay-mebibytes").flatMap(Int.init) ?? 16
        return HistoryBenchmark(
            sizes: option("sizes") == nil ? [1, 10] : sizesOption(), rounds: rounds,
            readMegabytes: option("read-megabytes").flatMap(Int.init) ?? 10, replayBytes: replayMebibytes << 20,
            readRounds: option("read-rounds").flatMap(Int.init) ?? 9,
            footprintMegabytes: footprint.split(separator: ",").compactMap { Double($0) },
            footprintSeconds: option("footprint-seconds").flatMap(Int.init) ?? 120,
            footprintMaximumBytes: option("footprint-kept-kibibytes").flatMap(Int.init).map { $0 << 10 } ?? 64 << 20,
            directory: option("directory") ?? FileManager.default.temporaryDirectory.path)
    }

    /// Runs every part, printing its lines as they come.
    func run() throws -> HistoryRow {
        let work = directory + "/workspace-history-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        var overhead: [HistoryRow.Overhead] = []
        for megabytes in sizes {
            let file = try WorkspaceGenerator.make(bytes: megabytes * 1_000_000).v4
            print("\(megabytes) MB: v4 file \(file.count) bytes, \(rounds) blocks of history off and on")
            let figures = try HistoryOverhead(file: file, directory: work + "/overhead", blocks: rounds).run()
            print(Self.line("  durable change (journal fdatasync)", figures.durableChange, goal: true))
            print(Self.line("  plain change", figures.plainChange, goal: true))
            print(Self.line("  save: timer → reported", figures.save, goal: true))
            print(Self.line("  first save (on: keeps the first snapshot)", figures.firstSave, goal: false))
            print(Self.line("  owner blocked per save", figures.ownerBlocked, goal: false))
            overhead.append(HistoryRow.Overhead(megabytes: megabytes, fileBytes: file.count, figures: figures))
        }
        var read: HistoryRead?
        if readMegabytes > 0 {
            let file = try WorkspaceGenerator.make(bytes: readMegabytes * 1_000_000).v4
            let figures = try HistoryReadTiming(
                file: file, directory: work + "/read", replayBytes: replayBytes, rounds: readRounds
            ).run()
            print(
                String(
                    format: "%d MB: model(atRevision:) replaying %.1f MiB (%d changes, %d segments moved + the live "
                        + "one) %.1f ms; StateFile.load %.1f ms; ratio %.2f (paired %.2f; goal ≤ 2) %@",
                    readMegabytes, Double(figures.replayedBytes) / 1_048_576, figures.replayedChanges,
                    figures.archivedSegments, figures.readSeconds * 1000, figures.loadSeconds * 1000, figures.ratio,
                    figures.pairedRatio, figures.ratio <= figures.goal ? "ok" : "MISSED"))
            read = HistoryRead(megabytes: readMegabytes, figures: figures)
        }
        var footprints: [HistoryRow.Footprint] = []
        for megabytes in footprintMegabytes {
            let file = try WorkspaceGenerator.make(bytes: Int(megabytes * 1_000_000)).v4
            let measured = try HistoryFootprint(
                file: file, directory: work + "/footprint", seconds: footprintSeconds,
                maximumByteCount: footprintMaximumBytes
            ).run()
            let footprint = Self.footprint(measured, megabytes: megabytes, saveSeconds: 5)
            print(Self.line(megabytes, footprint))
            footprints.append(footprint)
        }
        return HistoryRow(overhead: overhead, read: read, footprint: footprints)
    }

    /// What `measured` (a state of `megabytes` MB) gives under the default history, its segments `saveSeconds`
    /// apart.
    static func footprint(
        _ measured: HistoryFootprint.Result, megabytes: Double, saveSeconds: Double
    ) -> HistoryRow.Footprint {
        let retention = HistoryRetention(
            segmentBytes: Double(measured.segmentBytes) / Double(max(1, measured.segmentCount)),
            segmentSeconds: saveSeconds, snapshotBytes: Double(measured.snapshotBytes))
        let week = 7 * 24 * 3600.0
        let span = retention.span(maximumBytes: Double(64 << 20), keepSeconds: week, horizon: 2 * week)
        let bound = retention.span(
            maximumBytes: Double(measured.maximumByteCount), keepSeconds: week, horizon: 2 * week)
        // The manifest's records once full: a segment per save, a snapshot per generation.
        let segments = span.most / saveSeconds
        let snapshots = segments * retention.segmentBytes / retention.journalBound + 1
        return HistoryRow.Footprint(
            megabytes: megabytes, measured: measured, bytesPerChange: measured.bytesPerChange,
            defaultLeastHours: span.least / 3600,
            defaultMostHours: span.most / 3600, boundLeastHours: bound.least / 3600, boundMostHours: bound.most / 3600,
            weekMebibytes: retention.bytesToKeep(seconds: week) / Double(1 << 20),
            fullManifestBytes: (segments + snapshots) * measured.manifestBytesPerFile)
    }

    /// A figure's line: off, on, their ratio and the paired one, against ≤ 1.05 when `goal`.
    static func line(_ name: String, _ pair: HistoryOverhead.Pair, goal: Bool) -> String {
        var text =
            name.padding(toLength: 48, withPad: " ", startingAt: 0)
            + String(
                format: "off %9.3f ms  on %9.3f ms  ratio %.3f (paired %.3f)", pair.off * 1000, pair.on * 1000,
                pair.ratio, pair.pairedRatio)
        if goal { text += pair.ratio <= 1.05 ? " (goal ≤ 1.05) ok" : " (goal ≤ 1.05) MISSED" }
        return text
    }

    /// A footprint's line, and what the run saw of the bound if it reached it.
    static func line(_ megabytes: Double, _ footprint: HistoryRow.Footprint) -> String {
        let measured = footprint.measured
        var observed = ""
        if let least = measured.observedLeastSeconds, let most = measured.observedMostSeconds {
            observed = String(
                format: "\n  with maximumByteCount %d the run held %.2f–%.2f h; HistoryRetention says %.2f–%.2f h",
                measured.maximumByteCount, least / 3600, most / 3600, footprint.boundLeastHours,
                footprint.boundMostHours)
        }
        return String(
            format: "%g MB: %d renames at 10/s: %d segments, %.1f bytes a change (markers and headers included); "
                + "snapshot %.2f MB; manifest %.0f bytes a file. 64 MiB holds %.1f–%.1f h of renames at 10/s; a "
                + "week needs %.0f MiB; a full history's manifest %.1f MB. A save (timer → its end): %.2f ms in "
                + "the first tenth of the run, %.2f ms in the last",
            megabytes, measured.changes, measured.segmentCount, footprint.bytesPerChange,
            Double(measured.snapshotBytes) / 1e6, measured.manifestBytesPerFile, footprint.defaultLeastHours,
            footprint.defaultMostHours, footprint.weekMebibytes, footprint.fullManifestBytes / 1e6,
            measured.firstSavesSeconds * 1000, measured.lastSavesSeconds * 1000) + observed
    }
}
