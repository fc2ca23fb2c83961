import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `api.maximumBodyBytes` against the real daemon: the limit is enforced, a reload only warns that it needs a
/// restart, and the flag is checked like every other key.
@Suite("Control API body limit", .serialized)
struct BodyLimitTests {
    /// A favorite to add, padded with JSON whitespace to exactly `size` bytes.
    static func favorite(_ name: String, size: Int) -> String {
        let json = #"{"name":"\#(name)","path":"/\#(name)"}"#
        return String(repeating: " ", count: size - json.utf8.count) + json
    }

    @Test func theConfiguredLimitIsEnforcedAndAReloadNeedsARestart() async throws {
        let harness = try TestDaemon()
        try harness.writeConfig(#"{"api": {"maximumBodyBytes": 1024}}"#)
        let process = try harness.start()
        #expect(await harness.becomesReady(), "\(process.output)")
        let fits = try await curl(
            harness.socketPath, "POST", "/v1/favorites", body: Self.favorite("fits", size: 1024))
        #expect(fits.status == 201, "\(fits.body)")
        let over = try await curl(
            harness.socketPath, "POST", "/v1/favorites", body: Self.favorite("over", size: 2048))
        #expect(over.status == 413)
        #expect(over.body.contains(#""code":"body_too_large""#), "\(over.body)")
        #expect(over.body.contains("exceeds 1024 bytes"), "\(over.body)")

        try harness.writeConfig(#"{"api": {"maximumBodyBytes": 4096}}"#)
        process.send(SIGHUP)
        #expect(
            await harness.waitForMessage {
                $0.contains("STATUS=serving ") && $0.contains("configuration reloaded at")
            })
        #expect(await eventually { process.output.contains("api.maximumBodyBytes change only on restart") })
        let stillOver = try await curl(
            harness.socketPath, "POST", "/v1/favorites", body: Self.favorite("over", size: 2048))
        #expect(stillOver.status == 413, "a reload does not change the limit of the running server")
        process.send(SIGTERM)
        #expect(await process.waitForExit() == 0)

        // The reload's own datagrams also say READY=1 and "STATUS=serving …": only a READY=1 sent after the
        // restart began means the new process is ready.
        let (restarted, ready, _) = try await harness.startUntilReadyOrExit(output: "restarted.log")
        #expect(ready, "\(restarted.output)")
        let fitsNow = try await curl(
            harness.socketPath, "POST", "/v1/favorites", body: Self.favorite("now", size: 2048))
        #expect(fitsNow.status == 201, "\(fitsNow.body)")
        restarted.send(SIGTERM)
        #expect(await restarted.waitForExit() == 0)
    }

    @Test func anOutOfRangeFlagExits78NamingTheKey() async throws {
        let harness = try TestDaemon()
        let process = try harness.start(["--api-maximum-body-bytes", "1000"])
        #expect(await process.waitForExit() == 78)
        #expect(process.output.contains("api.maximumBodyBytes"))
        #expect(process.output.contains("1024...67108864"))
    }
}
