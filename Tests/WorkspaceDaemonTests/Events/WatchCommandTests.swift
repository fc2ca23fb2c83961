import Foundation
import TestSupport
import Testing
import WorkspaceAPI
import WorkspaceDaemon

#if canImport(Glibc)
import Glibc
#endif

/// `workspacectl watch` as a process against the control API on a real socket: it prints another client's change,
/// exits 0 after the daemon's `stopping` event and on SIGINT, and 69 when the daemon cannot be reached or the
/// stream breaks off.
@Suite("workspacectl watch", .serialized, .timeLimit(.minutes(2)))
struct WatchCommandTests {
    /// `workspacectl watch ARGS` against `socket`, its output in a file of `directory`.
    private static func watch(
        _ socket: String, in directory: String, _ arguments: String...
    ) throws
        -> RunningProcess
    {
        try RunningProcess(
            ProductPaths.executable("workspacectl"), ["watch", "--socket", socket] + arguments,
            environment: ["PATH": "/usr/bin:/bin"], outputPath: directory + "/watch-\(UUID().uuidString).log")
    }

    @Test func itPrintsAnotherClientsChangeAndExitsZeroAfterTheStoppingEvent() async throws {
        let world = try await EventsServer()
        let process = try Self.watch(world.socketPath, in: world.directory)
        #expect(
            await eventually {
                process.output.contains("subscribed at ") && process.output.contains(".0\n")
            })
        let created = try await world.client.createProject(name: "p1", layout: .single)
        let id = try #require(created.value?.id)
        #expect(
            await eventually {
                process.output.contains("Z change revision 1 project.create \(id)")
            }, "\(process.output)")
        world.events.publish(.stopping(signal: SIGTERM))
        world.events.close()
        #expect(await process.waitForExit() == 0, "\(process.output)")
        #expect(process.output.contains("stopping (signal 15)"))
        await world.stop()
    }

    @Test func jsonPrintsTheLinesAsReceived() async throws {
        let world = try await EventsServer()
        let process = try Self.watch(world.socketPath, in: world.directory, "--json")
        #expect(await eventually { process.output.contains(#""type":"subscribed""#) })
        _ = try await world.client.updateOwner(alias: "me")
        world.events.publish(.stopping(signal: SIGTERM))
        world.events.close()
        #expect(await process.waitForExit() == 0, "\(process.output)")
        let lines = process.output.split(separator: "\n").map(String.init)
        let events = try lines.map { try WorkspaceEvent.decode(line: $0) }
        #expect(events.map(\.type) == ["subscribed", "change", "stopping"])
        #expect(lines[1].hasPrefix(#"{"id":null,"operation":"owner.update","revision":1,"#), "as the daemon wrote it")
        await world.stop()
    }

    @Test func sigintEndsItWithZero() async throws {
        let world = try await EventsServer()
        let process = try Self.watch(world.socketPath, in: world.directory)
        #expect(await eventually { process.output.contains("subscribed") })
        process.send(SIGINT)
        #expect(await process.waitForExit() == 0, "\(process.output)")
        await world.stop()
    }

    @Test func aStreamThatBreaksOffWithoutStoppingExits69() async throws {
        let world = try await EventsServer()
        let process = try Self.watch(world.socketPath, in: world.directory)
        #expect(await eventually { process.output.contains("subscribed") })
        await world.server.shutdown()  // the stream ends without a stopping event
        #expect(await process.waitForExit() == 69, "\(process.output)")
        await world.stop()
    }

    @Test func noDaemonExits69() async throws {
        let directory = "/tmp/wsd-watch-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let process = try Self.watch(directory + "/missing.sock", in: directory)
        #expect(await process.waitForExit() == 69)
        #expect(process.output.contains("cannot reach workspaced"))
    }
}
