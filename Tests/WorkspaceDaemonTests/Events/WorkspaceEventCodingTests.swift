import Foundation
import Testing
import WorkspaceAPI
import WorkspaceModel

/// The wire form of an event: one flat JSON object with sorted keys, every field of its type written (`null`
/// included), and an unknown type decoded rather than refused.
@Suite("Event JSON")
struct WorkspaceEventCodingTests {
    static let time = Date(timeIntervalSince1970: 1_795_435_381)  // 2026-11-23T12:03:01Z

    @Test func aChangeIsOneFlatLineWithSortedKeys() throws {
        let id = try #require(WorkspaceID("6f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f"))
        let event = WorkspaceEvent(
            sequence: 41, time: Self.time, kind: .change(revision: 12, operation: "project.create", id: id))
        let line = String(decoding: try event.encodedLine(), as: UTF8.self)
        #expect(
            line
                == #"{"id":"6f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f","operation":"project.create","revision":12,"sequence":41,"time":"2026-11-23T12:03:01Z","type":"change"}"#
                + "\n")
        #expect(try WorkspaceEvent.decode(line: String(line.dropLast())) == event)
    }

    @Test func optionalFieldsAreWrittenAsNull() throws {
        let change = WorkspaceEvent(
            sequence: 1, time: Self.time, kind: .change(revision: 2, operation: "owner.update", id: nil))
        #expect(String(decoding: try change.encodedLine(), as: UTF8.self).contains(#""id":null"#))
        let failed = WorkspaceEvent(
            sequence: 2, time: Self.time,
            kind: .saveFailed(error: "disk full", consecutiveFailures: 3, retryInMilliseconds: nil))
        #expect(String(decoding: try failed.encodedLine(), as: UTF8.self).contains(#""retryInMilliseconds":null"#))
    }

    @Test(arguments: [
        WorkspaceEventKind.subscribed(revision: 3, lineage: "ab12"), .reset(revision: 5, lineage: "cd34", reason: "r"),
        .saveDurable(revision: 4, milliseconds: 2.5, bytes: 900),
        .saveFailed(error: "EIO", consecutiveFailures: 1, retryInMilliseconds: 1000),
        .saveRecovered(revision: 5, failures: 2), .configReloaded(logLevel: "debug"), .stopping(signal: 15),
        .lagged(missed: 120),
    ])
    func everyTypeRoundTrips(kind: WorkspaceEventKind) throws {
        let event = WorkspaceEvent(sequence: 7, time: Self.time, kind: kind)
        let line = String(decoding: try event.encodedLine().dropLast(), as: UTF8.self)
        #expect(!line.contains("\n"))
        #expect(try WorkspaceEvent.decode(line: line) == event)
        #expect(line.contains(#""type":"\#(kind.type)""#))
    }

    @Test func aTypeFromANewerDaemonDecodesAsUnknown() throws {
        let event = try WorkspaceEvent.decode(
            line: #"{"sequence":9,"time":"2026-11-23T12:03:01Z","type":"backup_made","path":"/x"}"#)
        #expect(event.kind == .unknown(type: "backup_made"))
        #expect(event.sequence == 9)
    }

    @Test func aLineThatIsNotAnEventIsRefused() {
        #expect(throws: DecodingError.self) { try WorkspaceEvent.decode(line: #"{"type":"change"}"#) }
        #expect(throws: DecodingError.self) {
            try WorkspaceEvent.decode(line: #"{"sequence":1,"time":"2026-11-23T12:03:01Z","type":"change"}"#)
        }
    }
}
