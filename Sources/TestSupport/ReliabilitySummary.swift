import Foundation

/// One row of the reliability summary `make test` and `make soak` end with: appended as a tab-separated line to
/// the file `WSD_RELIABILITY_SUMMARY` names (nothing when it is unset); `Scripts/reliability-summary.py` prints
/// the table.
package enum ReliabilitySummary {
    /// Appends `test`, `rounds`, `failures` and `duration` (seconds).
    package static func record(_ test: String, rounds: Int, failures: Int, duration: Duration) {
        guard let path = ProcessInfo.processInfo.environment["WSD_RELIABILITY_SUMMARY"], !path.isEmpty else { return }
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        let line = "\(test)\t\(rounds)\t\(failures)\t\(String(format: "%.1f", seconds))\n"
        guard let handle = FileHandle(forWritingAtPath: path) ?? Self.created(path) else { return }
        handle.seekToEndOfFile()
        handle.write(Data(line.utf8))
        handle.closeFile()
    }

    private static func created(_ path: String) -> FileHandle? {
        guard FileManager.default.createFile(atPath: path, contents: nil) else { return nil }
        return FileHandle(forWritingAtPath: path)
    }

    /// A round count from the environment variable `name`, or `fallback`.
    package static func rounds(_ name: String, default fallback: Int) -> Int {
        ProcessInfo.processInfo.environment[name].flatMap { Int($0) }.map { max(1, $0) } ?? fallback
    }
}
