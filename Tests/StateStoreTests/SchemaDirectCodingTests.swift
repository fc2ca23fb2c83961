import Foundation
import StateModel
import Testing

@testable import StateStore

/// A model that reads and writes itself directly (`@StateModel`).
@StateModel
private struct CodingShelf: Sendable, Equatable {
    var names: [String] = []
    var count: Int = 0
    var unknownFields = UnknownFields()
}

/// The same schema made where `Model` is only known to be `Codable & Sendable`: the general initializer.
private func genericSchema<Model: Codable & Sendable>(_ initial: Model) throws -> StateSchema<Model> {
    try StateSchema<Model>(currentVersion: 1, initial: { initial })
}

/// A schema made where the model's direct conformances are known captures them, so that a load and a save ask the
/// runtime for neither; a schema made in a generic context looks them up, and both read and write the same.
@Suite("A schema's captured direct coding")
struct SchemaDirectCodingTests {
    @Test func aStateModelSchemaCapturesItsReaderAndWriter() throws {
        let schema = try StateSchema<CodingShelf>(currentVersion: 1, initial: { CodingShelf() })
        #expect(schema.directModelCoding != nil)
        #expect(try genericSchema(CodingShelf()).directModelCoding == nil)
    }

    @Test func capturedAndLookedUpCodingReadAndWriteTheSame() throws {
        let captured = StateCodec(schema: try StateSchema<CodingShelf>(currentVersion: 1, initial: { CodingShelf() }))
        let lookedUp = StateCodec(schema: try genericSchema(CodingShelf()))
        let data = Data(#"{"count":2,"extra":{"kept":true},"names":["a","é\n"],"version":1}"#.utf8)
        let one = try captured.decode(data)
        let other = try lookedUp.decode(data)
        #expect(one.model == other.model)
        #expect(one.model.names == ["a", "é\n"] && one.model.count == 2)
        #expect(one.directReadFallback == nil && other.directReadFallback == nil)
        #expect(captured.directEncodable(one.model) != nil && lookedUp.directEncodable(one.model) != nil)
        let written = try captured.encode(one.model)
        #expect(written == (try lookedUp.encode(other.model)))
        #expect(String(decoding: written, as: UTF8.self).contains(#""extra":{"kept":true}"#))
    }
}
