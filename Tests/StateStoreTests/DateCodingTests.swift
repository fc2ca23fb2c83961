import Foundation
import StateStore
import TestSupport
import Testing

/// A one-version model holding dates, to exercise the codec's date coding alone.
private struct Stamps: Codable, Sendable, Equatable {
    var dates: [Date]
}

@Suite("ISO 8601 dates in state files", .heavy)
struct DateCodingTests {
    private let codec: StateCodec<Stamps>

    init() throws {
        codec = StateCodec(schema: try StateSchema<Stamps>(currentVersion: 1, initial: { Stamps(dates: []) }))
    }

    /// The dates stored in a file whose `dates` array holds `texts`.
    private func load(_ texts: [String]) throws -> [Date] {
        let list = texts.map { "\"\($0)\"" }.joined(separator: ",")
        return try codec.decode(Data(#"{"version": 1, "dates": [\#(list)]}"#.utf8)).model.dates
    }

    /// The date texts a save of `dates` writes.
    private func saved(_ dates: [Date]) throws -> [String] {
        try #require(try jsonObject(try codec.encode(Stamps(dates: dates)))["dates"] as? [String])
    }

    @Test func fractionalSecondsAndOffsetsLoad() throws {
        let dates = try load([
            "2024-05-01T10:00:00Z", "2024-05-01T10:00:00.5Z", "2024-05-01T10:00:00.123456Z",
            "2024-05-01T12:00:00+02:00", "2024-05-01T08:30:00.25-01:30", "2024-05-01t10:00:00z",
        ])
        #expect(
            dates.map(\.timeIntervalSince1970) == [
                1_714_557_600, 1_714_557_600.5, 1_714_557_600.123456, 1_714_557_600, 1_714_557_600.25,
                1_714_557_600,
            ])
    }

    @Test func wholeSecondsAreWrittenWithoutAFraction() throws {
        #expect(try saved([Date(timeIntervalSince1970: 1_714_557_600)]) == ["2024-05-01T10:00:00Z"])
        #expect(try saved([Date(timeIntervalSince1970: 0)]) == ["1970-01-01T00:00:00Z"])
        #expect(try saved([Date(timeIntervalSince1970: -1)]) == ["1969-12-31T23:59:59Z"])
    }

    @Test func wholeSecondsAreWrittenAsFoundationWritesThem() throws {
        let foundation = JSONEncoder()
        foundation.dateEncodingStrategy = .iso8601
        // Every 1,000,003 seconds (about 11.6 days) from 1900 to 2100, leap days included.
        let dates = stride(from: -2_208_988_800, to: 4_102_444_800, by: 1_000_003).map {
            Date(timeIntervalSince1970: Double($0))
        }
        let expected = try #require(try JSONSerialization.jsonObject(with: foundation.encode(dates)) as? [String])
        #expect(try saved(dates) == expected)
    }

    @Test func aLoadThenASaveKeepsFractionalSeconds() throws {
        let texts = ["2024-05-01T10:00:00.5Z", "2024-05-01T10:00:00.123456Z", "2024-05-01T10:00:00.25+01:00"]
        let dates = try load(texts)
        let written = try saved(dates)
        #expect(written == ["2024-05-01T10:00:00.5Z", "2024-05-01T10:00:00.123456Z", "2024-05-01T09:00:00.25Z"])
        #expect(try load(written) == dates)
    }

    @Test func anyDateWithAFractionReadsBackExactly() throws {
        var generator = SplitMix64(seed: 42)
        let dates = (0..<5_000).map { _ in
            Date(timeIntervalSince1970: Double(generator.next() % 8_000_000_000_000) / 1_000 - 2_000_000_000)
        }
        #expect(try load(try saved(dates)) == dates)
        let now = Date()
        #expect(try load(try saved([now])) == [now])
    }

    @Test func textThatIsNotADateIsCorruptNamingIt() throws {
        for text in ["yesterday", "2024-05-01", "2024-05-01T10:00:00.Z", "2024-13-01T10:00:00Z"] {
            #expect(throws: StateDecodingError.self) { try load([text]) }
            do {
                _ = try load([text])
            } catch {
                #expect("\(error)".contains(text), "\(error)")
            }
        }
    }

    /// What loads can be saved: a date outside the years 0000–9999 (which a save cannot write) is refused at the
    /// load, whichever parser read it (Foundation reads a five-digit year).
    @Test func aDateOutsideTheYears0000To9999IsRefusedAtTheLoad() throws {
        for text in ["20260-3-14T09:26:53Z", "0000-01-01T00:00:00+00:01", "9999-12-31T23:59:59-00:01"] {
            #expect(throws: StateDecodingError.self, "\(text) loaded") { try load([text]) }
        }
        let edges = try load(["0000-01-01T00:00:00Z", "9999-12-31T23:59:59.5Z"])
        #expect(try saved(edges) == ["0000-01-01T00:00:00Z", "9999-12-31T23:59:59.5Z"])
    }

    @Test func aDateBeyondTheYear9999CannotBeSavedAndSaysWhere() throws {
        let far = Date(timeIntervalSince1970: 1e12)
        #expect {
            try codec.encode(Stamps(dates: [far]))
        } throws: { error in
            guard case .invalidValue(_, let context) = error as? EncodingError else { return false }
            return context.codingPath.map(\.stringValue) == ["dates", "Index 0"]
                && context.debugDescription.contains("0000–9999")
        }
    }
}
