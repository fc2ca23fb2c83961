import Logging
import Systemd
import Testing

@Suite struct JournalFieldNameTests {
    @Test(arguments: [
        ("request-id", "", "REQUEST_ID"),
        ("user.name", "", "USER_NAME"),
        ("Workspace Name", "", "WORKSPACE_NAME"),
        ("_secret", "", "SECRET"),
        ("__", "", "META_"),
        ("9lives", "", "META_9LIVES"),
        ("message", "", "META_MESSAGE"),
        ("priority", "", "META_PRIORITY"),
        ("café", "", "CAF_"),
        ("request-id", "app_", "APP_REQUEST_ID"),
        ("message", "app.", "APP_MESSAGE"),
        ("x", "_", "X"),
        ("unit", "", "META_UNIT"),
        ("errno", "", "META_ERRNO"),
        ("syslog-facility", "", "META_SYSLOG_FACILITY"),
        ("object_pid", "", "META_OBJECT_PID"),
        ("coredump.unit", "", "META_COREDUMP_UNIT"),
        ("unit", "app_", "APP_UNIT"),
        ("units", "", "UNITS"),
    ])
    func mapsKeysToValidNames(key: String, prefix: String, expected: String) {
        #expect(JournalFieldName.forMetadataKey(key, prefix: prefix) == expected)
    }

    @Test func longNamesAreCutTo64() {
        let name = JournalFieldName.forMetadataKey(String(repeating: "a", count: 100))
        #expect(name == String(repeating: "A", count: 64))
    }

    @Test func everyMappedNameIsValid() {
        for key in ["a-b", "ÄÖÜ", "0", "", " ", "_x_", "MESSAGE_ID", "code_file", "emoji 🎉"] {
            let name = JournalFieldName.forMetadataKey(key)
            #expect(!name.isEmpty && name.count <= 64)
            #expect(
                name.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" })
            #expect(name.first != "_" && !(name.first?.isNumber ?? true))
            #expect(!JournalFieldName.reservedNames.contains(name))
            #expect(!JournalFieldName.journaldInterpretedNames.contains(name))
        }
    }

    @Test func levelsMapToSyslogPriorities() {
        let levels: [Logger.Level] = [.trace, .debug, .info, .notice, .warning, .error, .critical]
        #expect(levels.map(\.journalPriority) == [7, 7, 6, 5, 4, 3, 2])
    }
}
