import Foundation
import StateModel
import StateStoreSample
import Testing

@testable import StateStore

/// A one-version model whose keys sort around the unknown fields a test puts in.
@StateModel
private struct Keyed: Sendable, Equatable {
    var beta: String
    @StateKey("Zed") var zed: Int = 0
    var gamma: Date?
    @StateWritesNull var delta: Double?
    var tags: [String?] = []
    var unknownFields = UnknownFields()
}

/// Issue 29's generated writer: a save writes the model straight into the bytes, and the bytes are those of the
/// `Encodable` path (StateStore's compact encoder and `JSONEncoder`), byte for byte.
@Suite("Direct writes in StateCodec")
struct DirectWriteTests {
    /// The bytes of `model` written directly, through the compact encoder and through `JSONEncoder`; expects all
    /// three equal and returns them.
    @discardableResult
    private func compare<Model: Codable & Sendable>(
        _ schema: StateSchema<Model>, _ model: Model, stamped: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let direct = StateCodec(schema: schema)
        var encoded = direct
        encoded.writesDirectly = false
        let lineage = try #require(Lineage(rawValue: "0123456789abcdef"))
        func bytes(_ codec: StateCodec<Model>, compact: Bool) throws -> Data {
            let revision: UInt64? = stamped ? .max : nil
            return try codec.encode(
                model, version: nil, minReaderVersion: nil, revision: revision, lineage: stamped ? lineage : nil,
                compact: compact)
        }
        let written = try bytes(direct, compact: true)
        #expect(written == (try bytes(encoded, compact: true)), sourceLocation: sourceLocation)
        #expect(written == (try bytes(encoded, compact: false)), sourceLocation: sourceLocation)
        return String(decoding: written, as: UTF8.self)
    }

    @Test func everySampleFixtureIsWrittenAsEncoded() throws {
        let schema = try NotebookSchema.make()
        var codable = StateCodec(schema: schema)
        codable.readsDirectly = false
        for name in ["notebook/v1.json", "notebook/v2.json", "notebook/v3.json", "notebook/v4.json"] {
            // Read through `Codable`, so that unknown fields hold no text `JSONEncoder` would not write.
            let model = try codable.decode(try Fixtures.data(name)).model
            try compare(schema, model)
            try compare(schema, model, stamped: false)
        }
    }

    @Test func textsKeptByADirectReadAreWrittenByBothOfStateStoresWriters() throws {
        let schema = try NotebookSchema.make()
        var encoded = StateCodec(schema: schema)
        encoded.writesDirectly = false
        for name in ["notebook/v1.json", "notebook/v2.json", "notebook/v3.json", "notebook/v4.json"] {
            let model = try StateCodec(schema: schema).decode(try Fixtures.data(name)).model
            #expect(try StateCodec(schema: schema).encode(model) == (try encoded.encode(model)), "\(name)")
        }
    }

    @Test(arguments: [DateCoding.iso8601, .secondsSince1970])
    func unknownFieldsMergeWhereTheirKeysBelong(dateCoding: DateCoding) throws {
        let schema = try StateSchema<Keyed>(
            currentVersion: 2, firstVersion: 2, dateCoding: dateCoding, initial: { Keyed(beta: "") })
        let unknown: [String: JSONValue] = [
            "alpha": .array([.integer(1), .double(-0.0), .decimal(Decimal(string: "0.1")!), .null]),
            "c": .object(["é": .string("x\"\\\n\u{01}/"), "B": .bool(true), "a": .object([:])]),
            "zz": .unsignedInteger(UInt64.max), "Zeta": .string("before Zed? no: 'Zed' < 'Zeta'"),
            "é": .integer(-7), "beta2": .double(1e300), "version": .integer(9), "lineage": .string("kept aside"),
        ]
        let model = Keyed(
            beta: "a/b \u{7F} ☃ \u{1F600}", zed: -42, gamma: Date(timeIntervalSince1970: 1_795_000_000.25),
            delta: nil, tags: ["t", nil, ""], unknownFields: UnknownFields(unknown))
        let text = try compare(schema, model)
        // The store's own keys win over unknown fields of the same name, as the Encodable path writes them last.
        #expect(text.contains(#""version":2"#) && !text.contains(#""version":9"#), "\(text)")
        #expect(text.contains(#""lineage":"0123456789abcdef""#), "\(text)")
        try compare(schema, Keyed(beta: "", gamma: nil, delta: 2.5), stamped: false)
    }

    @Test func aModelWithoutADirectWriterIsEncodedAsBefore() throws {
        struct Plain: Codable, Sendable, Equatable { var name: String }
        let schema = try StateSchema<Plain>(currentVersion: 1, initial: { Plain(name: "") })
        #expect(try compare(schema, Plain(name: "x")).contains(#""name":"x""#))
    }
}
