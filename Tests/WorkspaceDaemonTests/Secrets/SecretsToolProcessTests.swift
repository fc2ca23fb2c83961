import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `workspaced secrets check | rekey | reset` as processes, against a store the real daemon created.
@Suite("workspaced secrets offline tools", .serialized)
struct SecretsToolProcessTests {
    func secrets(
        _ harness: DaemonHarness, _ arguments: [String], environment: [String: String] = [:]
    ) async throws -> (status: Int32, output: String) {
        try await harness.runToolAsync(
            ["secrets"] + arguments + ["--config", harness.configPath, "--state-directory", harness.stateDirectory],
            environment: environment)
    }

    /// Starts the daemon once (creating the store) and stops it.
    func createdStore() async throws -> DaemonHarness {
        let harness = try DaemonHarness()
        let process = try harness.start()
        #expect(await harness.becomesReady(), "\(process.output)")
        #expect(process.output.contains("message-id=aad123a68ac643d1bfdd9d97a423d0e7"), "installation created")
        #expect(process.output.contains("message-id=b01ccc4464f8495e84b74af7dd6a18fe"), "the key-file warning")
        process.send(SIGTERM)
        #expect(await exitStatus(of: process, timeout: .seconds(10)) == 0)
        return harness
    }

    @Test func theToolsRefuseWhileTheDaemonRuns() async throws {
        let harness = try DaemonHarness()
        let process = try harness.start()
        #expect(await harness.becomesReady())
        let check = try await secrets(harness, ["check"])
        #expect(check.status == 73 && check.output.contains("stop the daemon first"), "\(check.output)")
        #expect(try await secrets(harness, ["reset", "--yes"]).status == 73)
        #expect(FileManager.default.fileExists(atPath: harness.stateDirectory + "/secrets.json.enc"))
        process.send(SIGTERM)
        #expect(await exitStatus(of: process, timeout: .seconds(10)) == 0)
    }

    @Test func checkRekeyAndResetWithTheirExitStatuses() async throws {
        let harness = try await createdStore()
        let check = try await secrets(harness, ["check"])
        #expect(check.status == 0, "\(check.output)")
        #expect(check.output.contains("problems: none") && check.output.contains("installation: "))
        let installation = try #require(
            check.output.split(separator: "\n").first { $0.hasPrefix("installation: ") })
        let keyBefore = try Data(contentsOf: URL(fileURLWithPath: harness.stateDirectory + "/secrets.key"))
        let rekey = try await secrets(harness, ["rekey"])
        #expect(rekey.status == 0 && rekey.output.contains("re-encrypted"), "\(rekey.output)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: harness.stateDirectory + "/secrets.key")) != keyBefore)
        let after = try await secrets(harness, ["check"])
        #expect(after.status == 0 && after.output.contains(installation), "the same installation after a rekey")
        let refused = try await secrets(harness, ["reset"])
        #expect(refused.status == 64 && refused.output.contains("--yes"))
        let reset = try await secrets(harness, ["reset", "--yes"])
        #expect(reset.status == 0 && reset.output.contains("secrets.json.enc.reset-"), "\(reset.output)")
        #expect(try await secrets(harness, ["check"]).status == 66, "nothing there until the next start")
    }

    @Test func anUnreadableStoreIs65SayingWhy() async throws {
        let harness = try await createdStore()
        let credentials = harness.root + "/credentials"
        try FileManager.default.createDirectory(atPath: credentials, withIntermediateDirectories: true)
        try Data((Data(repeating: 7, count: 32).base64EncodedString() + "\n").utf8)
            .write(to: URL(fileURLWithPath: credentials + "/secrets-key"))
        let wrong = try await secrets(harness, ["check"], environment: ["CREDENTIALS_DIRECTORY": credentials])
        #expect(wrong.status == 65 && wrong.output.contains("wrong key"), "\(wrong.output)")
        let keyFile = harness.root + "/other.key"
        try Data(repeating: 9, count: 32).write(to: URL(fileURLWithPath: keyFile))
        let given = try await secrets(harness, ["check", "--key", keyFile])
        #expect(given.status == 65 && given.output.contains("wrong key"))
        try FileManager.default.removeItem(atPath: harness.stateDirectory + "/secrets.json.enc")
        let missing = try await secrets(harness, ["check"])
        #expect(missing.status == 65 && missing.output.contains("is missing, but"), "\(missing.output)")
    }

    @Test func theDaemonUsesTheCredentialAndStillServesWithoutIt() async throws {
        let harness = try DaemonHarness()
        let credentials = harness.root + "/credentials"
        try FileManager.default.createDirectory(atPath: credentials, withIntermediateDirectories: true)
        try Data((Data(repeating: 3, count: 32).base64EncodedString() + "\n").utf8)
            .write(to: URL(fileURLWithPath: credentials + "/secrets-key"))
        let first = try harness.start(environment: ["CREDENTIALS_DIRECTORY": credentials], output: "first.log")
        #expect(await harness.becomesReady(), "\(first.output)")
        #expect(!FileManager.default.fileExists(atPath: harness.stateDirectory + "/secrets.key"))
        #expect(!first.output.contains("message-id=b01ccc4464f8495e84b74af7dd6a18fe"), "no key-file warning")
        first.send(SIGTERM)
        #expect(await exitStatus(of: first, timeout: .seconds(10)) == 0)
        let stored = try Data(contentsOf: URL(fileURLWithPath: harness.stateDirectory + "/secrets.json.enc"))
        let second = try harness.start(output: "second.log")
        let readyTwice = await eventually(timeout: .seconds(40)) {
            harness.messages().filter { $0.split(separator: "\n").contains("READY=1") }.count >= 2
        }
        #expect(readyTwice, "\(second.output)")
        #expect(second.output.contains("message-id=d79dab42d84b4ae5a2a80835da9d401b"), "\(second.output)")
        #expect(second.output.contains("no key file"))
        #expect(!FileManager.default.fileExists(atPath: harness.stateDirectory + "/secrets.key"), "no key was made")
        second.send(SIGTERM)
        #expect(await exitStatus(of: second, timeout: .seconds(10)) == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: harness.stateDirectory + "/secrets.json.enc")) == stored)
    }
}
