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
        _ harness: TestDaemon, _ arguments: [String], environment: [String: String] = [:]
    ) async throws -> CommandResult {
        try await harness.runTool(
            ["secrets"] + arguments + ["--config", harness.configPath, "--state-directory", harness.stateDirectory],
            environment: environment)
    }

    /// Starts the daemon once (creating the store) and stops it.
    func createdStore() async throws -> TestDaemon {
        let harness = try TestDaemon()
        let process = try harness.start()
        #expect(await harness.becomesReady(), "\(process.output)")
        #expect(process.output.contains("message-id=aad123a68ac643d1bfdd9d97a423d0e7"), "installation created")
        #expect(process.output.contains("message-id=b01ccc4464f8495e84b74af7dd6a18fe"), "the key-file warning")
        process.send(SIGTERM)
        #expect(await process.waitForExit() == 0)
        return harness
    }

    @Test func theToolsRefuseWhileTheDaemonRuns() async throws {
        let harness = try TestDaemon()
        let process = try harness.start()
        #expect(await harness.becomesReady())
        let check = try await secrets(harness, ["check"])
        #expect(check.status == 73 && check.output.contains("stop the daemon first"), "\(check.output)")
        #expect(try await secrets(harness, ["reset", "--yes"]).status == 73)
        #expect(FileManager.default.fileExists(atPath: harness.stateDirectory + "/secrets.json.enc"))
        process.send(SIGTERM)
        #expect(await process.waitForExit() == 0)
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

    /// Writes `key` as base64 to `path`, the way `systemd-creds decrypt` leaves a decrypted credential.
    func writeKey(_ key: UInt8, to path: String) throws {
        try Data((Data(repeating: key, count: 32).base64EncodedString() + "\n").utf8)
            .write(to: URL(fileURLWithPath: path))
    }

    /// docs/secrets.md, "Moving the state directory to another machine": the state directory copied to another
    /// directory opens with the old key given as a file (the credential decrypted on the old host), and after
    /// `secrets rekey --key OLD --new-key NEW` only with the new key; the daemon then opens it from the new
    /// credential, same installation.
    @Test func aMovedStateDirectoryOpensWithTheOldKeyAndAfterARekeyWithTheNewOne() async throws {
        let old = try TestDaemon()
        let credentials = old.root + "/credentials"
        try FileManager.default.createDirectory(atPath: credentials, withIntermediateDirectories: true)
        try writeKey(3, to: credentials + "/secrets-key")
        let first = try old.start(environment: ["CREDENTIALS_DIRECTORY": credentials])
        #expect(await old.becomesReady(), "\(first.output)")
        first.send(SIGTERM)
        #expect(await first.waitForExit() == 0)
        let installation = try #require(
            try await secrets(old, ["check"], environment: ["CREDENTIALS_DIRECTORY": credentials]).output
                .split(separator: "\n").first { $0.hasPrefix("installation: ") })

        // The new machine: a copy of the state directory (lock files and all), no credential, no key file.
        let new = try TestDaemon()
        for name in try FileManager.default.contentsOfDirectory(atPath: old.stateDirectory) {
            try FileManager.default.copyItem(
                atPath: old.stateDirectory + "/" + name, toPath: new.stateDirectory + "/" + name)
        }
        #expect(!FileManager.default.fileExists(atPath: new.stateDirectory + "/secrets.key"))
        let noKey = try await secrets(new, ["check"])
        #expect(noKey.status == 65 && noKey.output.contains("no key file"), "\(noKey.output)")
        let oldKey = new.root + "/old.key"
        try writeKey(3, to: oldKey)
        let opened = try await secrets(new, ["check", "--key", oldKey])
        #expect(opened.status == 0 && opened.output.contains(installation), "\(opened.output)")

        let newKey = new.root + "/new.key"
        try writeKey(4, to: newKey)
        // As under DynamicUser=: the state directory and its files belong to the service's user, the tool runs
        // as root, and what it writes must go to that user (systemd does not chown a directory it already owns).
        let serviceUser: uid_t = 65534
        let asRoot = geteuid() == 0
        if asRoot {
            for name in try FileManager.default.contentsOfDirectory(atPath: new.stateDirectory) + [""] {
                #expect(lchown(new.stateDirectory + "/" + name, serviceUser, serviceUser) == 0)
            }
        }
        let rekey = try await secrets(new, ["rekey", "--key", oldKey, "--new-key", newKey])
        #expect(rekey.status == 0 && rekey.output.contains("re-encrypted"), "\(rekey.output)")
        if asRoot {
            for name in try FileManager.default.contentsOfDirectory(atPath: new.stateDirectory) {
                var info = stat()
                #expect(lstat(new.stateDirectory + "/" + name, &info) == 0)
                #expect(info.st_uid == serviceUser && info.st_gid == serviceUser, "\(name) is uid \(info.st_uid)")
            }
            #expect(rekey.output.contains("to uid 65534"), "\(rekey.output)")
        }
        #expect(rekey.output.contains("systemd-creds encrypt --name=secrets-key"), "says what to do next")
        #expect(try await secrets(new, ["check", "--key", oldKey]).status == 65, "the old key no longer opens it")
        let rekeyed = try await secrets(new, ["check", "--key", newKey])
        #expect(rekeyed.status == 0 && rekeyed.output.contains(installation), "\(rekeyed.output)")

        let newCredentials = new.root + "/credentials"
        try FileManager.default.createDirectory(atPath: newCredentials, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: newKey, toPath: newCredentials + "/secrets-key")
        let daemon = try new.start(environment: ["CREDENTIALS_DIRECTORY": newCredentials])
        #expect(await new.becomesReady(), "\(daemon.output)")
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit() == 0)
        #expect(!daemon.output.contains("message-id=d79dab42d84b4ae5a2a80835da9d401b"), "\(daemon.output)")
        #expect(!daemon.output.contains("message-id=aad123a68ac643d1bfdd9d97a423d0e7"), "no new installation")
        #expect(!FileManager.default.fileExists(atPath: new.stateDirectory + "/secrets.key"), "no key file made")
    }

    @Test func theDaemonUsesTheCredentialAndStillServesWithoutIt() async throws {
        let harness = try TestDaemon()
        let credentials = harness.root + "/credentials"
        try FileManager.default.createDirectory(atPath: credentials, withIntermediateDirectories: true)
        try Data((Data(repeating: 3, count: 32).base64EncodedString() + "\n").utf8)
            .write(to: URL(fileURLWithPath: credentials + "/secrets-key"))
        let first = try harness.start(environment: ["CREDENTIALS_DIRECTORY": credentials], output: "first.log")
        #expect(await harness.becomesReady(), "\(first.output)")
        #expect(!FileManager.default.fileExists(atPath: harness.stateDirectory + "/secrets.key"))
        #expect(!first.output.contains("message-id=b01ccc4464f8495e84b74af7dd6a18fe"), "no key-file warning")
        first.send(SIGTERM)
        #expect(await first.waitForExit() == 0)
        let stored = try Data(contentsOf: URL(fileURLWithPath: harness.stateDirectory + "/secrets.json.enc"))
        let second = try harness.start(output: "second.log")
        let readyTwice = await eventually {
            harness.count("READY=1") >= 2
        }
        #expect(readyTwice, "\(second.output)")
        #expect(second.output.contains("message-id=d79dab42d84b4ae5a2a80835da9d401b"), "\(second.output)")
        #expect(second.output.contains("no key file"))
        #expect(!FileManager.default.fileExists(atPath: harness.stateDirectory + "/secrets.key"), "no key was made")
        second.send(SIGTERM)
        #expect(await second.waitForExit() == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: harness.stateDirectory + "/secrets.json.enc")) == stored)
    }
}
