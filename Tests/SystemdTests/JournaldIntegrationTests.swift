import Foundation
import StateStoreTesting
import Systemd
import TestSupport
import Testing

/// The handler against a real systemd-journald in a private mount namespace (Scripts/journald-sandbox.sh).
/// Skipped with a reason when the namespace is out of reach (not root, no unshare); with CI=true it always runs.
@Suite(.enabled("needs root and unshare(1) for a private journald") { await JournaldSandbox.shouldRun() })
struct JournaldIntegrationTests {
    @Test func entriesArriveWithAllFields() async throws {
        let directory = try TemporaryDirectory(prefix: "sd")
        defer { directory.remove() }
        let run = try await runCommand(
            ["/bin/sh", TestPaths.script("journald-sandbox.sh"), directory.path, TestPaths.helper, "journal"])
        try #require(run.status == 0, "sandbox output: \(run.output)")
        let entries = try await JournaldSandbox.entries(in: directory.path + "/journal")
        let byMessage = Dictionary(entries.map { ($0["MESSAGE"] ?? "", $0) }) { first, _ in first }

        let levels = ["trace": "7", "debug": "7", "info": "6", "notice": "5", "warning": "4", "error": "3"]
        for (level, priority) in levels.merging(["critical": "2"], uniquingKeysWith: { $1 }) {
            #expect(byMessage["level \(level)"]?["PRIORITY"] == priority, "level \(level)")
        }
        for entry in entries {
            #expect(entry["SYSLOG_IDENTIFIER"] == "systemd-test-helper")
            #expect(entry["CODE_FILE"] == "SystemdTestHelper/JournalMode.swift")
            #expect(entry["CODE_FUNC"] == "run()")
            #expect(entry["RUN"] == "journal-test")
        }
        #expect(entries.count == 11)

        let located = try #require(byMessage["located"])
        #expect(located["CODE_LINE"] == run.value("line"))

        let multiLine = entries.filter { $0["MESSAGE"]?.contains("line") == true && $0["MESSAGE"] != "located" }
        #expect(multiLine.map { $0["MESSAGE"] } == ["first line\nsecond line\nthird line"])

        let withMetadata = try #require(byMessage["with metadata"])
        #expect(withMetadata["REQUEST_ID"] == "r-17")
        #expect(withMetadata["USER_NAME"] == "ada")
        #expect(withMetadata["SECRET"] == "s")
        #expect(withMetadata["META_9LIVES"] == "cat")
        #expect(withMetadata["META_MESSAGE"] == "shadow")
        #expect(withMetadata["LIST"] == #"["a", "b"]"#)
        #expect(withMetadata["PRIORITY"] == "6")

        let withID = try #require(byMessage["with message id"])
        #expect(withID["MESSAGE_ID"] == "5a4a3c9f1b2e4d6f8a7b9c0d1e2f3a4b")
        #expect(entries.filter { $0["MESSAGE_ID"] != nil }.count == 1)
    }
}

enum JournaldSandbox {
    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// Root, unshare and a working mount namespace; in CI the test runs regardless, so that it fails loudly.
    static func shouldRun() async -> Bool {
        if isCI { return true }
        let reason: String?
        if getuid() != 0 {
            reason = "not root"
        } else if !TestPaths.isExecutable("/usr/bin/unshare") {
            reason = "/usr/bin/unshare is missing"
        } else if !TestPaths.isExecutable("/lib/systemd/systemd-journald") {
            reason = "/lib/systemd/systemd-journald is missing"
        } else if (try? await runCommand(["/usr/bin/unshare", "--mount", "true"]))?.status != 0 {
            reason = "unshare --mount is not permitted here"
        } else {
            reason = nil
        }
        if let reason { print("JournaldIntegrationTests skipped: \(reason)") }
        return reason == nil
    }

    /// The helper's entries from `journalctl -D DIRECTORY -o json`, string fields only.
    static func entries(in directory: String) async throws -> [[String: String]] {
        let result = try await runCommand([
            "/usr/bin/journalctl", "-D", directory, "-o", "json", "--no-pager",
            "SYSLOG_IDENTIFIER=systemd-test-helper",
        ])
        #expect(result.status == 0, "journalctl: \(result.output)")
        return try result.lines.map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return (object as? [String: Any] ?? [:]).compactMapValues { $0 as? String }
        }
    }
}
