import Foundation
import Systemd
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The code of the ServiceManagerIntegration article, compiled here (its Swift blocks are text of this file,
/// indentation aside: GuideCodeTests checks) and run where this process's environment allows: outside a
/// service, the socket and the credentials are refused with the errors the article names.
@Suite struct ServiceManagerIntegrationSnippetTests {
    /// The readiness block; run by a service under systemd, not here (a test process must not send READY=1).
    static func notifyReadiness() throws {
        let notifier = LibsystemdNotifier()
        try notifier.status("loading /var/lib/app/state.json")
        try notifier.extendTimeout(by: .seconds(5))  // a long load asks for more time, again before it runs out
        try notifier.ready(status: "serving 12 projects")
    }

    /// The owner's health check the article leaves to the service.
    typealias HealthCheck = @Sendable () async -> Bool

    /// The watchdog block.
    static func startWatchdog(notifier: some ServiceNotifier, ownerAnswers: @escaping HealthCheck) throws {
        if let configuration = try WatchdogConfiguration.fromProcessEnvironment() {
            let watchdog = Watchdog(configuration: configuration, notifier: notifier) {
                await ownerAnswers()  // false, or no answer at all, stops the pings
            }
            watchdog.start()
        }
    }

    static func activatedSocket() throws -> Int32 {
        let socket = try SocketActivation.listeningUnixSocket(named: "control", unsetEnvironment: true)
        // serve on socket.fileDescriptor instead of binding the path yourself
        return socket.fileDescriptor
    }

    static func credentials() throws -> ([UInt8], String) {
        let key = try Credentials().bytes("secrets-key")  // the raw bytes
        let token = try Credentials().string("upstream-token")  // UTF-8, trailing newlines removed
        return (key, token)
    }

    @Test func outsideAServiceTheSocketAndTheCredentialsAreRefused() throws {
        try #require(getenv("LISTEN_FDS") == nil && getenv("CREDENTIALS_DIRECTORY") == nil)
        #expect(throws: SocketActivationError.noSocketNamed("control", available: [])) {
            try Self.activatedSocket()
        }
        #expect(throws: CredentialError.directoryUnset(name: "secrets-key")) { try Self.credentials() }
    }
}
