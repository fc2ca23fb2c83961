import Foundation
import Testing

@testable import StateStore

/// The crash-loop guard's record is spelled directly when it tells of no crash: the same bytes `JSONEncoder`
/// (sorted keys) writes, which read back as the same record.
@Suite struct LoadAttemptRecordJSONTests {
    static func encoded(_ record: LoadAttemptRecord) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .custom(WholeSecondDates.encode)
        return try encoder.encode(record)
    }

    static func decoded(_ data: Data) throws -> LoadAttemptRecord {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom(WholeSecondDates.decode)
        return try decoder.decode(LoadAttemptRecord.self, from: data)
    }

    @Test func aRecordWithoutACrashIsWhatJSONEncoderWrites() throws {
        let now = Date().timeIntervalSince1970
        let records = [
            LoadAttemptRecord(size: 48_213_771, modified: now, attempts: 1, lastCrash: nil),
            LoadAttemptRecord(size: 0, modified: 1_764_489_600.123_456_7, attempts: 3, lastCrash: nil),
            LoadAttemptRecord(size: 12, modified: 0.5, attempts: 2, lastCrash: nil),
            LoadAttemptRecord(size: 12, modified: -1.25, attempts: 2, lastCrash: nil),
            LoadAttemptRecord(size: 12, modified: 1_700_000_000, attempts: 1, lastCrash: nil),
            LoadAttemptRecord(size: nil, modified: nil, attempts: 1, lastCrash: nil),
        ]
        for record in records {
            let plain = try #require(record.plainJSON, "\(record)")
            let expected = String(decoding: try Self.encoded(record), as: UTF8.self)
            #expect(String(decoding: plain, as: UTF8.self) == expected)
            #expect(try Self.decoded(plain) == record)
        }
    }

    @Test func aCrashOrAnExponentIsLeftToJSONEncoder() {
        let crash = CrashedLoad(attempts: 3, movedTo: "x.corrupt", restoredFrom: nil, at: Date())
        #expect(LoadAttemptRecord(size: 1, modified: 2, attempts: 1, lastCrash: crash).plainJSON == nil)
        #expect(LoadAttemptRecord(size: 1, modified: 1e300, attempts: 1, lastCrash: nil).plainJSON == nil)
        #expect(LoadAttemptRecord(size: 1, modified: .nan, attempts: 1, lastCrash: nil).plainJSON == nil)
    }
}
