import Foundation
import StateStore
import WorkspaceModel
import WorkspaceStorage

/// The direct decoder against the `Codable` path: any bytes decode to the same state and the same
/// report both ways, or are refused with the same error, strict and salvaging; and the state the load gave is
/// written by the direct writer to the bytes its `Encodable` encode gives. A difference, or a trap, is a finding.
package final class DirectDecoderFuzzer: FuzzChecking {
    let direct: StateCodec<Workspace>
    let codable: StateCodec<Workspace>

    /// A checker with the workspace schema.
    package init() throws {
        (direct, codable) = try DecodeOutcome.codecs()
    }

    /// Decodes `input` both ways, strict and salvaging, and compares.
    package func check(_ input: Data) async -> FuzzFinding? {
        for salvaging in [false, true] {
            let compared = DecodeOutcome.compare(direct: direct, codable: codable, input, salvaging: salvaging)
            if !compared.direct.writtenDirectlyAsEncoded {
                return FuzzFinding(
                    .directDecoder, "the direct write differs from the Encodable encode: \(compared.direct)")
            }
            if !compared.same {
                let mode = salvaging ? "salvaging" : "strict"
                return FuzzFinding(.directDecoder, "\(mode): direct \(compared.direct) ≠ Codable \(compared.codable)")
            }
        }
        return nil
    }
}
