import Foundation

/// The persistence engine on generated workspaces of each size, loaded through StateStore as the daemon loads
/// them (issue 16; docs/benchmarks.md): save ÷ (encode + durable write), the owner blocked per save, the file
/// writes under 10,000 changes/s for `streamSeconds`, and the release daemon's SIGTERM → exit, dirty ÷ (encode
/// + durable write) and clean.
struct PersistenceBenchmark {
    let daemon: String
    let sizes: [Int]
    let rounds: Int
    let streamSeconds: Int

    /// Measures every size, printing each one's lines and its row as it comes.
    func run() throws -> [PersistenceRow] {
        let directory = FileManager.default.temporaryDirectory.path + "/workspace-persistence-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var rows: [PersistenceRow] = []
        for megabytes in sizes {
            let file = try WorkspaceGenerator.make(bytes: megabytes * 1_000_000).v4
            let path = directory + "/workspace.json"
            try file.write(to: URL(fileURLWithPath: path))
            print("\(megabytes) MB: v4 file \(file.count) bytes, \(rounds) rounds")
            let saves = try SaveTimings(path: path, rounds: rounds).run()
            print(line("  encode + durable write (before each save)", saves.encodeAndWrite))
            print(
                line(
                    "  save: timer → durable acknowledgement", saves.save, ratio: saves.save / saves.encodeAndWrite,
                    goal: "≤ 1.10"))
            print(String(format: "    median of per-round ratios %.3f", saves.pairedRatio))
            print(line("  owner blocked per save (snapshot under the lock)", saves.ownerBlocked, goal: "≤ 1 ms"))
            print(line("    worst of the rounds", saves.ownerBlockedWorst))
            print(line("  timer callback (snapshot, queue the save)", saves.timerCallback))
            print(line("  an ordinary change", saves.ordinaryChange))
            print(line("  the first change while a save holds the snapshot", saves.firstChangeDuringSave))
            let stream = try ChangeStream(path: path, seconds: streamSeconds).run()
            print(
                String(
                    format:
                        "  stream: %d changes in %.2f s; file writes %d (%d started during the stream); goal ≤ %d %@",
                    stream.changes, stream.seconds, stream.fileWrites, stream.writesStartedDuringStream, stream.goal,
                    stream.fileWrites <= stream.goal ? "ok" : "OVER"))
            let sigterm = try SigtermTimings(daemon: daemon, directory: directory + "/sigterm", rounds: rounds)
                .run(file: file)
            print(line("  encode + durable write (with the change)", sigterm.encodeAndWrite))
            print(
                line(
                    "  SIGTERM → exit, dirty (workspaced)", sigterm.dirty,
                    ratio: sigterm.dirty / sigterm.encodeAndWrite,
                    goal: "≤ 1.2"))
            print(String(format: "    median of per-round ratios %.3f", sigterm.pairedDirtyRatio))
            print(line("  SIGTERM → exit, clean (workspaced)", sigterm.clean, goal: "≤ 20 ms"))
            rows.append(
                PersistenceRow(
                    megabytes: megabytes, fileBytes: file.count, saveSeconds: saves.save,
                    encodeAndWriteSeconds: saves.encodeAndWrite, saveRatio: saves.save / saves.encodeAndWrite,
                    ownerBlockedSeconds: saves.ownerBlocked, fileWrites: stream.fileWrites,
                    sigtermDirtySeconds: sigterm.dirty, sigtermDirtyRatio: sigterm.dirty / sigterm.encodeAndWrite,
                    sigtermCleanSeconds: sigterm.clean))
        }
        return rows
    }

    private func line(_ name: String, _ seconds: Double, ratio: Double? = nil, goal: String? = nil) -> String {
        var text = name.padding(toLength: 56, withPad: " ", startingAt: 0) + String(format: "%10.3f ms", seconds * 1000)
        if let ratio { text += String(format: "   ratio %.3f", ratio) }
        if let goal { text += " (goal \(goal))" }
        return text
    }
}
