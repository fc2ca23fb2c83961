import Foundation
import StateStore
import Testing
import WorkspaceFuzzing

@testable import WorkspaceModel
@testable import WorkspaceStorage

/// Loads bytes twice, straight into the model (the direct read, falling back to `Codable` as a load does) and
/// through `Codable` alone, and records an issue unless both give the same state and the same report, or refuse
/// with the same error: issue 29's promise that the direct path changes nothing but speed. The fuzz target
/// `direct-decoder` checks the same on the inputs libFuzzer makes (``DirectDecoderFuzzer``).
struct DirectDifferential {
    let direct: StateCodec<Workspace>
    let codable: StateCodec<Workspace>

    init() throws {
        (direct, codable) = try DecodeOutcome.codecs()
    }

    /// Decodes `data` both ways (`salvaging` as a load under the salvage policy does), records an issue naming
    /// `name` when the outcomes differ, and returns whether the direct read was used (no fallback).
    @discardableResult
    func check(
        _ name: String, _ data: Data, salvaging: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        let compared = DecodeOutcome.compare(direct: direct, codable: codable, data, salvaging: salvaging)
        #expect(
            compared.same, "\(name): direct \(compared.direct) ≠ Codable \(compared.codable)",
            sourceLocation: sourceLocation)
        #expect(
            compared.direct.writtenDirectlyAsEncoded, "\(name): the direct write differs from the Encodable encode",
            sourceLocation: sourceLocation)
        return compared.direct.error == nil && compared.fallback == nil
    }
}
