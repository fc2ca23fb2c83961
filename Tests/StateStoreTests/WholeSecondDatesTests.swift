import Foundation
import Testing

@testable import StateStore

/// The store's own records (the history's manifest, the crash-loop guard's record) write their dates as
/// `JSONEncoder`'s `.iso8601` strategy does, so a release that reads them with it (an older one) still can.
@Suite("dates of the store's own records")
struct WholeSecondDatesTests {
    private struct Record: Codable, Equatable {
        var at: Date
    }

    private static let dates = [
        0, 1.9, -0.5, -1, 1_700_000_000.999, 1_764_466_920, 1_764_466_920.000_1, 253_402_300_799.5,
    ].map(Date.init(timeIntervalSince1970:))

    @Test("the text is Foundation's .iso8601, and either reads the other's")
    func sameTextAsFoundation() throws {
        let foundation = JSONEncoder()
        foundation.dateEncodingStrategy = .iso8601
        let ours = JSONEncoder()
        ours.dateEncodingStrategy = .custom(WholeSecondDates.encode)
        let foundationReader = JSONDecoder()
        foundationReader.dateDecodingStrategy = .iso8601
        let ourReader = JSONDecoder()
        ourReader.dateDecodingStrategy = .custom(WholeSecondDates.decode)
        for date in Self.dates {
            let expected = try foundation.encode(Record(at: date))
            let written = try ours.encode(Record(at: date))
            #expect(String(decoding: written, as: UTF8.self) == String(decoding: expected, as: UTF8.self), "\(date)")
            let whole = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
            #expect(try foundationReader.decode(Record.self, from: written) == Record(at: whole))
            #expect(try ourReader.decode(Record.self, from: expected) == Record(at: whole))
        }
    }

    @Test("a date with a fraction or an offset, which another writer may have left, still reads")
    func readsMoreThanItWrites() throws {
        let reader = JSONDecoder()
        reader.dateDecodingStrategy = .custom(WholeSecondDates.decode)
        let read = try reader.decode(Record.self, from: Data(#"{"at": "2026-11-30T02:30:00.25+01:00"}"#.utf8))
        #expect(read.at == Date(timeIntervalSince1970: 1_796_002_200.25))
        #expect(throws: DecodingError.self) {
            try reader.decode(Record.self, from: Data(#"{"at": "yesterday"}"#.utf8))
        }
    }
}
