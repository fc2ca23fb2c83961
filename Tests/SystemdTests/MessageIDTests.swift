import Logging
import Systemd
import Testing

@Suite struct MessageIDTests {
    @Test func parsesHexAndDashedUUIDs() {
        #expect(MessageID("5A4A3C9F1B2E4D6F8A7B9C0D1E2F3A4B")?.description == "5a4a3c9f1b2e4d6f8a7b9c0d1e2f3a4b")
        #expect(MessageID("5a4a3c9f-1b2e-4d6f-8a7b-9c0d1e2f3a4b")?.description == "5a4a3c9f1b2e4d6f8a7b9c0d1e2f3a4b")
    }

    @Test(arguments: [
        "", "5a4a", "5a4a3c9f1b2e4d6f8a7b9c0d1e2f3a4g", "5a4a3c9f1b2e4d6f8a7b9c0d1e2f3a4b00",
        "5a4a3c9f1b2e-4d6f-8a7b-9c0d1e2f3a4b", "5a4a3c9f-1b2e-4d6f-8a7b-9c0d1e2f3a4-",
    ])
    func rejectsOtherText(text: String) {
        #expect(MessageID(text) == nil)
    }

    @Test func randomIdsAre128BitHexAndDiffer() {
        let first = MessageID.random()
        let second = MessageID.random()
        #expect(first != second)
        #expect(MessageID(first.description) == first)
        #expect(first.description.count == 32)
    }

    @Test func bytesBecomeHex() {
        let id = MessageID(bytes: (0x00, 0x01, 0x0a, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10))
        #expect(id.description == "00010aff000000000000000000000010")
    }

    @Test func metadataHelperUsesTheMessageIdKey() {
        let id = MessageID("5a4a3c9f1b2e4d6f8a7b9c0d1e2f3a4b")!
        #expect(Logger.Metadata.messageID(id) == ["message-id": "5a4a3c9f1b2e4d6f8a7b9c0d1e2f3a4b"])
    }

    @Test func validIdBecomesTheMessageIdField() {
        let record = makeRecord(metadata: ["message-id": "5A4A3C9F-1B2E-4D6F-8A7B-9C0D1E2F3A4B", "user": "ada"])
        #expect(record.messageID == MessageID("5a4a3c9f1b2e4d6f8a7b9c0d1e2f3a4b"))
        let fields = record.journalFields(prefix: "")
        #expect(fields.filter { $0.name == "MESSAGE_ID" }.map(\.value) == ["5a4a3c9f1b2e4d6f8a7b9c0d1e2f3a4b"])
        #expect(
            fields.map(\.name) == [
                "MESSAGE", "PRIORITY", "SYSLOG_IDENTIFIER", "CODE_FILE", "CODE_LINE", "CODE_FUNC", "MESSAGE_ID", "USER",
            ])
    }

    @Test func invalidIdStaysOrdinaryMetadata() {
        let record = makeRecord(metadata: ["message-id": "not-an-id"])
        #expect(record.messageID == nil)
        let fields = record.journalFields(prefix: "")
        #expect(!fields.contains { $0.name == "MESSAGE_ID" })
        #expect(fields.last?.name == "META_MESSAGE_ID")
        #expect(fields.last?.value == "not-an-id")
    }

    private func makeRecord(metadata: Logger.Metadata) -> LogRecord {
        LogRecord(
            level: .notice, message: "m", identifier: "test", label: "label", file: "Module/File.swift", line: 7,
            function: "f()", metadata: metadata)
    }
}
