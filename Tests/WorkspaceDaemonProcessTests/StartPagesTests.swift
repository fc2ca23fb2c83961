import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `workspaced run` makes its zero-initialised data resident before `main` (Sources/CStartPages/start_pages.c), so
/// that the start's threads do not fault its pages in one by one.
@Suite("The start's .bss", .serialized)
struct StartPagesTests {
    @Test func aStartedDaemonHasItsWholeBSSResident() async throws {
        let harness = try TestDaemon()
        let process = try harness.start(["--log-level", "debug"])
        #expect(await harness.becomesReady(), "no READY=1; output: \(process.output)")
        let bss = try #require(Self.bss(of: process.pid), "no .bss mapping in /proc/\(process.pid)/smaps")
        #expect(bss.size > 0)
        #expect(bss.resident == bss.size, "\(bss.resident) of \(bss.size) kB resident")
        process.send(SIGTERM)
        #expect(await process.waitForExit() == 0)
        // Said at debug once the configured level is in force, beside the early signal handlers' line.
        #expect(process.output.contains("the .bss was made resident before main: true"), "\(process.output)")
        #expect(process.output.contains("early signal handlers were installed: true"))
    }

    /// The anonymous mapping right after the executable's last file mapping (its data): the .bss, in kB.
    static func bss(of pid: pid_t) -> (size: Int, resident: Int)? {
        guard let smaps = try? String(contentsOfFile: "/proc/\(pid)/smaps", encoding: .utf8),
            let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
        else { return nil }
        var previousWasExecutable = false
        var inBSS = false
        var size: Int?
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), fields.count >= 5, !first.hasSuffix(":") {
                // A mapping's header: range, permissions, offset, device, inode, then the path if any.
                if inBSS { return nil }
                let path = fields.count > 5 ? fields[5...].joined(separator: " ") : ""
                inBSS = previousWasExecutable && path.isEmpty
                previousWasExecutable = path == executable
                continue
            }
            guard inBSS, fields.count >= 2, let value = Int(fields[1]) else { continue }
            if fields[0] == "Size:" { size = value }
            if fields[0] == "Rss:", let size { return (size, value) }
        }
        return nil
    }
}
