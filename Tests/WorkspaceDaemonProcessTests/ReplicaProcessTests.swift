import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Replication on the workspaced binary (issue 43): a host replicates, is SIGKILLed and lost; `workspaced restore`
/// and `replica.restoreIfMissing` bring its state back on another state directory, which serves it while the lease
/// stays the first host's until `workspaced replica takeover`. Against a directory replica, sealed with a
/// `replica-key` credential, and against moto's S3 server, stopped and started under writes.
@Suite("workspaced's replication")
struct ReplicaProcessTests {
    /// A credentials directory holding a random `replica-key`, shared by every host of one test.
    static func credentials(_ harness: TestDaemon) throws -> String {
        let directory = harness.root + "/credentials"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let key = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        try Data(key.utf8).write(to: URL(fileURLWithPath: directory + "/replica-key"))
        return directory
    }

    /// The status's `replica` object.
    static func replicaStatus(_ harness: TestDaemon) async throws -> [String: Any] {
        let status = try await curl(harness.socketPath, "GET", "/v1/status")
        let object = try JSONSerialization.jsonObject(with: Data(status.body.utf8)) as? [String: Any]
        return object?["replica"] as? [String: Any] ?? [:]
    }

    static func favoriteNames(_ harness: TestDaemon) async throws -> [String] {
        let listed = try await curl(harness.socketPath, "GET", "/v1/favorites")
        let object = try JSONSerialization.jsonObject(with: Data(listed.body.utf8))
        let items = (object as? [String: Any])?["favorites"] as? [[String: Any]] ?? (object as? [[String: Any]] ?? [])
        return items.compactMap { $0["name"] as? String }.sorted()
    }

    /// Waits until the replica holds the daemon's newest revision.
    static func caughtUp(_ harness: TestDaemon) async -> Bool {
        await eventually {
            guard let replica = try? await replicaStatus(harness) else { return false }
            return replica["lagRevisions"] as? Int == 0 && (replica["replicatedRevision"] as? Int ?? 0) > 0
        }
    }

    @Test func aLostHostComesBackFromADirectoryReplica() async throws {
        let first = try TestDaemon()
        let credentials = try Self.credentials(first)
        let config = """
            {"save": {"debounceMilliseconds": 60000, "maximumDelayMilliseconds": 60000},
             "replica": {"url": "file://\(first.root)/replica", "syncIntervalMilliseconds": 100}}
            """
        try first.writeConfig(config)
        let environment = ["CREDENTIALS_DIRECTORY": credentials]
        let a = try first.start(environment: environment, output: "a.log")
        #expect(await first.becomesReady(), "\(a.output)")
        for name in ["one", "two", "three"] {
            let created = try await curl(
                first.socketPath, "POST", "/v1/favorites", body: #"{"name":"\#(name)","path":"/\#(name)"}"#)
            #expect(created.status == 201)
        }
        #expect(await Self.caughtUp(first), "\(a.output)")
        let held = try await Self.replicaStatus(first)
        #expect(held["holdsLease"] as? Bool == true)
        #expect(held["encryption"] as? String == "aes-256-gcm")
        a.send(SIGKILL)
        _ = await a.waitForExit()
        // Nothing of the workspace is in the clear in the replica.
        let replica = first.root + "/replica"
        for path in try FileManager.default.subpathsOfDirectory(atPath: replica) where path.contains("/") {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: replica + "/" + path))) ?? Data()
            #expect(bytes.firstRange(of: Data("three".utf8)) == nil, "\(path) holds plaintext")
        }

        // Another state directory: the restore tool, then a start that replays what it wrote.
        let second = try TestDaemon()
        try second.writeConfig(config)
        let refused = try await second.runTool(
            ["restore", "--config", second.configPath, "--state-directory", second.stateDirectory])
        #expect(refused.status == 78, "without the replica-key: \(refused.output)")
        #expect(refused.output.contains("replica.encryption"), "\(refused.output)")
        let restored = try await second.runTool(
            ["restore", "--config", second.configPath, "--state-directory", second.stateDirectory],
            environment: environment)
        #expect(restored.status == 0, "\(restored.output)")
        #expect(restored.output.contains("revision 3"), "\(restored.output)")
        let again = try await second.runTool(
            ["restore", "--config", second.configPath, "--state-directory", second.stateDirectory],
            environment: environment)
        #expect(again.status == 73, "a state directory with a state is refused: \(again.output)")
        let b = try second.start(environment: environment, output: "b.log")
        #expect(await second.becomesReady(), "\(b.output)")
        #expect(try await Self.favoriteNames(second) == ["one", "three", "two"])
        // The lease is still the lost host's: this one serves and writes nothing to the replica.
        let heldElsewhere = await eventually {
            (try? await Self.replicaStatus(second))?["heldBy"] is String
        }
        #expect(heldElsewhere, "\(b.output)")
        #expect(second.messages().contains { $0.contains("STATUS=replica: held by") })
        // The point in time before the third favorite, with --force: the files are moved aside.
        b.send(SIGTERM)
        #expect(await b.waitForExit() == 0)
        let earlier = try await second.runTool(
            [
                "restore", "--config", second.configPath, "--state-directory", second.stateDirectory, "--at", "2",
                "--force",
            ],
            environment: environment)
        #expect(earlier.status == 0, "\(earlier.output)")
        #expect(earlier.output.contains("revision 2"), "\(earlier.output)")
        let readyBefore = second.count("READY=1")
        let c = try second.start(environment: environment, output: "c.log")
        #expect(await eventually { second.count("READY=1") > readyBefore }, "\(c.output)")
        #expect(try await Self.favoriteNames(second) == ["one", "two"])
        c.send(SIGTERM)
        _ = await c.waitForExit()
        let takeover = try await second.runTool(
            ["replica", "takeover", "--config", second.configPath, "--state-directory", second.stateDirectory],
            environment: environment)
        #expect(takeover.status == 0, "\(takeover.output)")
        #expect(takeover.output.contains("is now held by"), "\(takeover.output)")
        // check shows the replica: the new holder, and the newest revision the lost host replicated.
        let secondID = try String(contentsOfFile: second.stateDirectory + "/replica-installation", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let checked = try await second.runTool(
            ["check", "--config", second.configPath, "--state-directory", second.stateDirectory],
            environment: environment)
        #expect(checked.output.contains("lease: held by \(secondID)"), "\(checked.output)")
        #expect(checked.output.contains("revision 3"), "\(checked.output)")

        // A third host configured to restore when it has no state file starts from the replica by itself.
        let third = try TestDaemon()
        try third.writeConfig(
            """
            {"replica": {"url": "file://\(first.root)/replica", "restoreIfMissing": true}}
            """)
        let d = try third.start(environment: environment, output: "d.log")
        #expect(await third.becomesReady(), "\(d.output)")
        #expect(d.output.contains("restored from the replica"), "\(d.output)")
        #expect(try await Self.favoriteNames(third) == ["one", "three", "two"])
        d.send(SIGTERM)
        _ = await d.waitForExit()
    }

    /// A malformed `replica.*` value and missing S3 keys refuse the start with 78 naming the key.
    @Test(arguments: [
        (#"{"replica": {"url": "s3://No_Such/prefix"}}"#, "replica.url"),
        (#"{"replica": {"url": "file://relative"}}"#, "replica.url"),
        (#"{"replica": {"url": "s3://bucket/p", "endpoint": "ftp://x"}}"#, "replica.endpoint"),
        (#"{"replica": {"url": "s3://bucket/p", "encryption": "none"}}"#, "replica.url"),
        (#"{"history": {"keepSeconds": 0}, "replica": {"url": "file:///tmp/r"}}"#, "replica.url"),
        (#"{"replica": {"url": "file:///tmp/r", "durableAcknowledgement": "yes"}}"#, "replica.durableAcknowledgement"),
        (#"{"replica": {"url": "file:///tmp/r", "localMaximumBytes": -1}}"#, "replica.localMaximumBytes"),
    ])
    func aBadReplicaConfigurationRefusesTheStart(config: String, key: String) async throws {
        let harness = try TestDaemon()
        try harness.writeConfig(config)
        let process = try harness.start(output: "refused.log")
        #expect(await process.waitForExit() == 78, "\(process.output)")
        #expect(process.output.contains(key), "\(process.output)")
    }

    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["WSD_S3_VENV"] != nil
                || ProcessInfo.processInfo.environment["CI"] == "true",
            "needs moto (Scripts/with-s3-server.sh)"))
    func theStoreStoppedAndStartedUnderWritesCatchesUp() async throws {
        let venv = try #require(
            ProcessInfo.processInfo.environment["WSD_S3_VENV"], "run the tests through Scripts/with-s3-server.sh")
        let harness = try TestDaemon()
        // A store of this test's own, reached through a relay that plays the outage: stopping the relay takes the
        // store away without losing what it holds (moto keeps objects in memory).
        let storePort = try freePort()
        let store = try RunningProcess(
            venv + "/bin/moto_server", ["-H", "127.0.0.1", "-p", "\(storePort)"],
            environment: ["PATH": "/usr/bin:/bin"],
            outputPath: harness.root + "/moto.log")
        defer { store.send(SIGTERM) }
        #expect(await eventually { await Self.answers(port: storePort) }, "\(store.output)")
        let bucket = try await curl(nil, "PUT", "http://127.0.0.1:\(storePort)/replicas")
        #expect(bucket.status == 200, "\(bucket.body)")
        let relayPort = try freePort()
        func relay() throws -> RunningProcess {
            try RunningProcess(
                "/usr/bin/socat",
                ["TCP-LISTEN:\(relayPort),bind=127.0.0.1,fork,reuseaddr", "TCP:127.0.0.1:\(storePort)"],
                environment: ["PATH": "/usr/bin:/bin"], outputPath: harness.root + "/relay-\(UUID().uuidString).log")
        }
        var relayProcess = try relay()
        #expect(await eventually { await Self.answers(port: relayPort) })
        try harness.writeConfig(
            """
            {"save": {"debounceMilliseconds": 100, "maximumDelayMilliseconds": 500},
             "replica": {"url": "s3://replicas/host-a", "endpoint": "http://127.0.0.1:\(relayPort)",
                         "syncIntervalMilliseconds": 100, "encryption": "none"}}
            """)
        let environment = ["AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing"]
        let daemon = try harness.start(environment: environment, output: "daemon.log")
        #expect(await harness.becomesReady(), "\(daemon.output)")
        for index in 0..<5 {
            let created = try await curl(
                harness.socketPath, "POST", "/v1/favorites", body: #"{"name":"f\#(index)","path":"/f\#(index)"}"#)
            #expect(created.status == 201)
        }
        #expect(await Self.caughtUp(harness), "\(daemon.output)")

        // socat serves each connection in a child of its own: the outage kills them too, or the daemon's pooled
        // connection would go on reaching the store.
        let children =
            (try? String(
                contentsOfFile: "/proc/\(relayProcess.pid)/task/\(relayProcess.pid)/children", encoding: .utf8)) ?? ""
        for child in children.split(separator: " ").compactMap({
            pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }) {
            kill(child, SIGKILL)
        }
        relayProcess.send(SIGKILL)
        _ = await relayProcess.waitForExit()
        for index in 5..<10 {
            let created = try await curl(
                harness.socketPath, "POST", "/v1/favorites", body: #"{"name":"f\#(index)","path":"/f\#(index)"}"#)
            #expect(created.status == 201, "the daemon serves on while the store is down")
        }
        let failing = await eventually {
            let replica = (try? await Self.replicaStatus(harness)) ?? [:]
            return replica["lastError"] is String && (replica["lagRevisions"] as? Int ?? 0) > 0
        }
        #expect(failing, "\(daemon.output)")
        #expect(daemon.output.contains("message-id=561c51a542a2495b96614455bca704d1"), "\(daemon.output)")

        relayProcess = try relay()
        defer { relayProcess.send(SIGTERM) }
        #expect(await Self.caughtUp(harness), "\(daemon.output)")
        #expect(await eventually { daemon.output.contains("replicating again") }, "\(daemon.output)")
        daemon.send(SIGKILL)
        _ = await daemon.waitForExit()

        let other = try TestDaemon()
        try other.writeConfig(try String(contentsOfFile: harness.configPath, encoding: .utf8))
        let restored = try await other.runTool(
            ["restore", "--config", other.configPath, "--state-directory", other.stateDirectory],
            environment: environment)
        #expect(restored.status == 0, "\(restored.output)")
        #expect(restored.output.contains("revision 10"), "\(restored.output)")
        let served = try other.start(environment: environment, output: "restored.log")
        #expect(await other.becomesReady(), "\(served.output)")
        #expect(try await Self.favoriteNames(other) == (0..<10).map { "f\($0)" }.sorted())
        served.send(SIGTERM)
        _ = await served.waitForExit()
    }

    /// A store that is down from the start: the history keeps what the replica lacks past `history.maximumBytes`,
    /// up to `replica.localMaximumBytes`; past it the oldest is pruned anyway, with a warning carrying its
    /// MESSAGE_ID and the status saying how much the replica missed.
    @Test func aStoreDownForLongHoldsHistoryUpToItsBoundThenSaysSo() async throws {
        let harness = try TestDaemon()
        let port = try freePort()
        try harness.writeConfig(
            """
            {"save": {"debounceMilliseconds": 0, "maximumDelayMilliseconds": 1},
             "history": {"maximumBytes": 4096},
             "replica": {"url": "s3://replicas/down", "endpoint": "http://127.0.0.1:\(port)", "encryption": "none",
                         "syncIntervalMilliseconds": 100, "localMaximumBytes": 49152}}
            """)
        let environment = ["AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing"]
        let daemon = try harness.start(environment: environment, output: "daemon.log")
        #expect(await harness.becomesReady(), "\(daemon.output)")
        func add(_ range: Range<Int>) async throws {
            for index in range {
                let created = try await curl(
                    harness.socketPath, "POST", "/v1/favorites",
                    body: #"{"name":"favorite \#(index)","path":"/srv/projects/favorite-\#(index)"}"#)
                #expect(created.status == 201)
            }
        }
        try await add(0..<40)
        // Held past the history's own bound, nothing dropped yet.
        let early = try await Self.replicaStatus(harness)
        #expect((early["heldBytes"] as? Int ?? 0) > 4096, "\(early)")
        #expect(early["prunedUnreplicatedBytes"] as? Int == 0, "\(early)")
        #expect(early["localMaximumBytes"] as? Int == 49152)
        let failing = await eventually {
            (try? await Self.replicaStatus(harness))?["lastError"] is String
        }
        #expect(failing, "the store is down: \(daemon.output)")

        let event = "06004e5657484ce594f350e95a0790ee"
        var added = 40
        while !daemon.output.contains(event), added < 600 {
            try await add(added..<(added + 20))
            added += 20
        }
        #expect(daemon.output.contains("message-id=\(event)"), "after \(added) changes: \(daemon.output)")
        #expect(daemon.output.contains("replica.localMaximumBytes"), "\(daemon.output)")
        let status = try await curl(harness.socketPath, "GET", "/v1/status")
        let object = try JSONSerialization.jsonObject(with: Data(status.body.utf8)) as? [String: Any] ?? [:]
        let replica = object["replica"] as? [String: Any] ?? [:]
        #expect((replica["prunedUnreplicatedBytes"] as? Int ?? 0) > 0, "\(replica)")
        #expect((replica["prunedUnreplicatedRevision"] as? Int ?? 0) > 0, "\(replica)")
        #expect(replica["prunedUnreplicatedAt"] is String, "\(replica)")
        let history = object["history"] as? [String: Any] ?? [:]
        // The pruning keeps the history's files within the hold; the status counts the manifest too (a record of
        // about 300 bytes per file).
        #expect((history["bytes"] as? Int ?? .max) <= 49152 + 16384, "\(history)")
        let shown = try RunningProcess(
            ProductPaths.executable("workspacectl"), ["status", "--socket", harness.socketPath],
            environment: ["PATH": "/usr/bin:/bin"], outputPath: harness.root + "/workspacectl.log")
        #expect(await shown.waitForExit() == 0, "\(shown.output)")
        #expect(shown.output.contains("PRUNED"), "\(shown.output)")
        daemon.send(SIGTERM)
        #expect(await daemon.waitForExit() == 0, "\(daemon.output)")
    }

    /// Whether an HTTP server answers on `port` of 127.0.0.1 (with any status).
    static func answers(port: Int) async -> Bool {
        ((try? await curl(nil, "GET", "http://127.0.0.1:\(port)/"))?.status ?? 0) > 0
    }
}

/// A TCP port nobody listens on now, on 127.0.0.1.
func freePort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw TestSupportError(description: "socket: \(errno)") }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard bound == 0 else { throw TestSupportError(description: "bind: \(errno)") }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(descriptor, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}
