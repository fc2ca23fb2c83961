import Foundation
import Testing

@testable import StateStore

/// `HistoryManifest(json:)` reads what `JSONDecoder` read before it, and refuses what it refused.
@Suite("The history's manifest, read without JSONDecoder")
struct HistoryManifestReadingTests {
    static let record = #"""
        {"name":"snapshot.7.0123456789abcdef.json","kind":"snapshot","lineage":"0123456789abcdef","relabels":null,\#
        "startsLineage":false,"firstRevision":7,"lastRevision":7,"firstTime":"2026-11-22T02:21:00Z",\#
        "lastTime":"2026-11-22T02:21:00Z","archivedTime":"2026-11-22T02:21:05Z","bytes":120,"sha256":"ab",\#
        "crc32c":4294967295,"decodesAsHeld":true}
        """#

    /// The manifest `text` as the reader and the decoder read it.
    static func bothReads(_ text: String) -> (reader: HistoryManifest?, decoder: HistoryManifest?) {
        let bytes = Data(text.utf8)
        return (
            bytes.withUnsafeBytes { HistoryManifest(json: $0) },
            try? HistoryArchive.decoder.decode(HistoryManifest.self, from: bytes)
        )
    }

    /// Each case replaces one piece of `record` (the first of two records in the manifest).
    static let cases: [(name: String, from: String, to: String)] = [
        ("as written", "", ""),
        ("optional keys absent", #","crc32c":4294967295,"decodesAsHeld":true"#, ""),
        ("optional keys null", #""firstTime":"2026-11-22T02:21:00Z""#, #""firstTime":null"#),
        ("a relabels string", #""relabels":null"#, #""relabels":"fedcba9876543210""#),
        ("unknown keys", #""bytes":120"#, #""later":{"a":[1,2]},"bytes":120"#),
        ("a date with a fraction", "02:21:05Z", "02:21:05.250+01:00"),
        ("a required key missing", #""sha256":"ab","#, ""),
        ("a kind not known", #""kind":"snapshot""#, #""kind":"other""#),
        ("a null required date", #""archivedTime":"2026-11-22T02:21:05Z""#, #""archivedTime":null"#),
        ("a date that is not one", #""lastTime":"2026-11-22T02:21:00Z""#, #""lastTime":"yesterday""#),
        ("a negative revision", #""lastRevision":7"#, #""lastRevision":-7"#),
        ("a CRC beyond 32 bits", "4294967295", "4294967296"),
        ("a string for a Boolean", #""startsLineage":false"#, #""startsLineage":"false""#),
        ("not JSON", #""bytes":120"#, #""bytes":120,,"#),
    ]

    @Test(arguments: cases.indices)
    func readsAsTheDecoderRead(_ index: Int) {
        let (name, from, to) = Self.cases[index]
        let edited = from.isEmpty ? Self.record : Self.record.replacingOccurrences(of: from, with: to)
        #expect(from.isEmpty || edited != Self.record, "\(name): the edit applies")
        let text = #"{"history":1,"files":["# + edited + "," + Self.record + "]}"
        let (reader, decoder) = Self.bothReads(text)
        #expect(reader == decoder, "\(name)")
        #expect((reader != nil) == (index < 6), "\(name): the first six read, the others are refused")
    }

    @Test func whatTheArchiveWritesReadsBackAndTheEdgesAreAsTheDecoders() throws {
        let one = #"{"history":1,"files":["# + Self.record + "]}"
        let decoded = try #require(Self.bothReads(one).decoder)
        let written = try HistoryArchive.encoder.encode(decoded)
        let read = try #require(written.withUnsafeBytes { HistoryManifest(json: $0) })
        #expect(read.files.count == 1 && read.files[0].crc32c == 4_294_967_295 && read.files[0].decodesAsHeld == true)
        #expect(read == (try HistoryArchive.decoder.decode(HistoryManifest.self, from: written)))
        let edges = [
            #"{"files":[]}"#, #"{"history":1}"#, #"{"history":2,"files":[]}"#, "[]", #"{"history":1,"files":[]} x"#,
        ]
        for text in edges {
            let (reader, decoder) = Self.bothReads(text)
            #expect(reader == decoder, "\(text)")
        }
        let empty = #"{"history":1,"files":[]}"#
        #expect(Self.bothReads(empty).reader == HistoryManifest())
    }
}
