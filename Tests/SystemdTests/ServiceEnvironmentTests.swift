import Foundation
import Systemd
import Testing

@Suite struct ServiceEnvironmentTests {
    @Test func directoriesTakeTheFirstOfSeveralPaths() {
        let environment = ServiceEnvironment([
            "STATE_DIRECTORY": "/var/lib/workspaced:/var/lib/other",
            "RUNTIME_DIRECTORY": "/run/workspaced",
            "CONFIGURATION_DIRECTORY": ":/etc/workspaced:/etc/more",
        ])
        #expect(environment.stateDirectory == "/var/lib/workspaced")
        #expect(environment.runtimeDirectory == "/run/workspaced")
        #expect(environment.configurationDirectory == "/etc/workspaced")
    }

    @Test func unsetOrEmptyVariablesAreNil() {
        let environment = ServiceEnvironment(["STATE_DIRECTORY": "", "NOTIFY_SOCKET": ""])
        #expect(environment.stateDirectory == nil)
        #expect(environment.runtimeDirectory == nil)
        #expect(environment.configurationDirectory == nil)
        #expect(environment.notifySocket == nil)
        #expect(environment.credentialsDirectory == nil)
    }

    @Test func underSystemdWhenInvocationIDOrJournalStreamIsSet() {
        #expect(ServiceEnvironment(["INVOCATION_ID": "0123"]).isUnderSystemd)
        #expect(ServiceEnvironment(["JOURNAL_STREAM": "8:1234"]).isUnderSystemd)
        #expect(!ServiceEnvironment(["HOME": "/root"]).isUnderSystemd)
    }

    /// Against Foundation's reading of the same `environ`.
    @Test func processSnapshotMatchesTheProcessEnvironment() {
        let snapshot = ServiceEnvironment.process()
        #expect(snapshot.variables == ProcessInfo.processInfo.environment)
        #expect(snapshot["PATH"] != nil)
    }
}
