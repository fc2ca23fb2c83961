import Foundation
import StateModel
import StateStore
import StateStoreSample
import TestSupport
import Testing

/// A one-version model holding every standard type with a direct reader.
@StateModel
private struct Sampler: Sendable, Equatable {
    var when: Date
    var whenMaybe: Date?
    var small: Int8 = 0
    var large: UInt64 = 0
    var ratio: Double = 0
    var narrow: Float = 0
    var flag: Bool = false
    var id: UUID?
    var grid: [[Int16]] = []
    var holes: [String?] = []
    var unknownFields = UnknownFields()
}

/// Issue 29 in StateStore: a strict load reads the stored version's type straight from the bytes when it has a
/// direct reader, and gives what the `Codable` path gives; both date codings; the sample's generic model.
@Suite("Direct reads in StateCodec")
struct DirectReadTests {
    /// Decodes `data` with direct reads on and off; expects the same model, report fields and error, and returns
    /// the direct decode's fallback reason (nil when it read directly).
    private func compare<Model: Codable & Sendable & Equatable>(
        _ schema: StateSchema<Model>, _ data: Data, sourceLocation: SourceLocation = #_sourceLocation
    ) -> (read: Bool, fallback: String?) {
        let direct = StateCodec(schema: schema)
        var codable = direct
        codable.readsDirectly = false
        let one = Result { try direct.decode(data) }
        let other = Result { try codable.decode(data) }
        switch (one, other) {
        case (.success(let a), .success(let b)):
            #expect(a.model == b.model, sourceLocation: sourceLocation)
            #expect(a.storedVersion == b.storedVersion, sourceLocation: sourceLocation)
            #expect(a.stepsApplied == b.stepsApplied, sourceLocation: sourceLocation)
            #expect(a.fieldsDefaulted == b.fieldsDefaulted, sourceLocation: sourceLocation)
            #expect(a.unknownKeysKept == b.unknownKeysKept, sourceLocation: sourceLocation)
            #expect(a.warnings == b.warnings, sourceLocation: sourceLocation)
            #expect(b.directReadFallback == "direct reads are off", sourceLocation: sourceLocation)
            return (true, a.directReadFallback)
        case (.failure(let a), .failure(let b)):
            #expect("\(a)" == "\(b)", sourceLocation: sourceLocation)
            return (false, nil)
        default:
            Issue.record("direct \(one) ≠ Codable \(other)", sourceLocation: sourceLocation)
            return (false, nil)
        }
    }

    @Test func everySampleFixtureIsReadDirectlyAndTheSame() throws {
        let schema = try NotebookSchema.make()
        for name in ["notebook/v1.json", "notebook/v2.json", "notebook/v3.json", "notebook/v4.json"] {
            let (read, fallback) = compare(schema, try Fixtures.data(name))
            #expect(read && fallback == nil, "\(name): \(fallback ?? "not loaded")")
        }
        for name in ["notebook-down/v3.json", "edge/duplicate-ids.json", "edge/unknown-kind-number.json"] {
            _ = compare(schema, try Fixtures.data(name))
        }
    }

    @Test(arguments: [DateCoding.iso8601, .secondsSince1970])
    func everyStandardTypeReadsAsCodableReadsIt(dateCoding: DateCoding) throws {
        let schema = try StateSchema<Sampler>(
            currentVersion: 1, dateCoding: dateCoding,
            initial: { Sampler(when: Date(timeIntervalSince1970: 0)) })
        let when = dateCoding == .iso8601 ? "\"2026-11-27T10:00:00.5Z\"" : "1795000000.25"
        let full =
            #"{"version":1,"when":\#(when),"whenMaybe":null,"small":-128,"large":18446744073709551615,"#
            + #""ratio":1e-3,"narrow":3.4e38,"flag":true,"id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","#
            + #""grid":[[1,2],[],[-32768]],"holes":["a",null],"extra":{"k":[1.25,null]}}"#
        let (read, fallback) = compare(schema, Data(full.utf8))
        #expect(read && fallback == nil, "\(fallback ?? "not loaded")")
        // Defaults and nothing else.
        let sparse = #"{"version":1,"when":\#(when)}"#
        #expect(compare(schema, Data(sparse.utf8)).fallback == nil)
        // Each out of its type's range or of another type: refused both ways, with the same error.
        for edit in [
            (#""small":-128"#, #""small":-129"#), (#""narrow":3.4e38"#, #""narrow":3.5e38"#),
            (#""flag":true"#, #""flag":1"#), (#""id":"E621"#, #""id":"X621"#), (#""grid":[[1,2]"#, #""grid":[[1.5,2]"#),
        ] {
            let edited = full.replacingOccurrences(of: edit.0, with: edit.1)
            #expect(edited != full)
            #expect(!compare(schema, Data(edited.utf8)).read, "\(edit.1) loaded")
        }
    }

    @Test func aVersionWithoutADirectReaderLoadsThroughCodable() throws {
        struct Plain: Codable, Sendable, Equatable { var name: String }
        let schema = try StateSchema<Plain>(currentVersion: 1, initial: { Plain(name: "") })
        let (read, fallback) = compare(schema, Data(#"{"version":1,"name":"x"}"#.utf8))
        #expect(read)
        #expect(fallback?.contains("no direct reader") == true, "\(fallback ?? "nil")")
    }
}
