import Foundation
import StateStore
import WorkspaceModel
import WorkspaceStorage

/// What one decode of a workspace file came to: everything its report shows and the model as the bytes of its
/// values, or the error. Two decodes of the same bytes compare equal when they gave the same state.
package struct DecodeOutcome: Equatable, Sendable, CustomStringConvertible {
    /// The model as `JSONEncoder` writes it: unknown fields as their values, so that a direct read (which keeps
    /// their text) and a `Codable` read (which cannot) compare by what they hold.
    package var model: Data?
    package var storedVersion: Int?
    package var storedMinReaderVersion: Int?
    package var storedRevision: UInt64?
    package var storedLineage: String?
    package var stepsApplied: [ClosedRange<Int>] = []
    package var fieldsDefaulted: [String: Int] = [:]
    package var fieldsTakenBack: [String: Int] = [:]
    package var unknownKeysKept: [String: Int] = [:]
    package var warnings: [String] = []
    package var repairs: [String] = []
    package var isNewerCompatible = false
    package var salvage: SalvageReport?
    package var error: StateDecodingError?
    /// Whether the model's direct write gave the bytes StateStore's `Encodable` encode gives, kept texts and all
    /// (true when nothing loaded).
    package var writtenDirectlyAsEncoded = true

    /// Decodes `data` with `codec` (`salvaging` as a load under the salvage policy does); returns the outcome and,
    /// when it loaded, why it was read through `Codable` (nil when it was read directly).
    package static func of(
        _ codec: StateCodec<Workspace>, _ data: Data, salvaging: Bool
    ) -> (outcome: DecodeOutcome, fallback: String?) {
        do {
            let decoded = try codec.decode(data, salvaging: salvaging)
            var outcome = DecodeOutcome()
            outcome.model = try? codec.encode(decoded.model, version: nil, minReaderVersion: nil, compact: false)
            var encoding = codec
            encoding.writesDirectly = false
            let written = try? codec.encode(decoded.model)
            outcome.writtenDirectlyAsEncoded = written == (try? encoding.encode(decoded.model))
            outcome.storedVersion = decoded.storedVersion
            outcome.storedMinReaderVersion = decoded.storedMinReaderVersion
            outcome.storedRevision = decoded.storedRevision
            outcome.storedLineage = decoded.storedLineage?.rawValue
            outcome.stepsApplied = decoded.stepsApplied
            outcome.fieldsDefaulted = decoded.fieldsDefaulted
            outcome.fieldsTakenBack = decoded.fieldsTakenBack
            outcome.unknownKeysKept = decoded.unknownKeysKept
            outcome.warnings = decoded.warnings
            outcome.repairs = decoded.repairs
            outcome.isNewerCompatible = decoded.isNewerCompatible
            outcome.salvage = decoded.salvage
            outcome.numberFreshIDs()
            return (outcome, decoded.directReadFallback)
        } catch {
            return (DecodeOutcome(error: error), nil)
        }
    }

    /// The two codecs a comparison uses: `direct`, which reads every array at the root in two parts however small
    /// (so that every input checks that read too), and `codable`, which reads through `Codable` only.
    package static func codecs() throws -> (direct: StateCodec<Workspace>, codable: StateCodec<Workspace>) {
        var direct = StateCodec(schema: try WorkspaceSchema.make())
        var codable = direct
        codable.readsDirectly = false
        direct.readsInPartsFrom = 0
        return (direct, codable)
    }

    /// Decodes `data` with `direct` and with `codable` (which reads through `Codable` only) and compares.
    package static func compare(
        direct: StateCodec<Workspace>, codable: StateCodec<Workspace>, _ data: Data, salvaging: Bool
    ) -> (same: Bool, direct: DecodeOutcome, codable: DecodeOutcome, fallback: String?) {
        let (directOutcome, fallback) = of(direct, data, salvaging: salvaging)
        let codableOutcome = of(codable, data, salvaging: salvaging).outcome
        return (directOutcome == codableOutcome, directOutcome, codableOutcome, fallback)
    }

    /// Replaces the random ids a repair gave records that repeat an id (`given the fresh id …`) with their
    /// order, in the repairs and the model, so that two decodes compare.
    mutating func numberFreshIDs() {
        let marker = "given the fresh id "
        var text = String(decoding: model ?? Data(), as: UTF8.self)
        for (number, repair) in repairs.enumerated() {
            guard let range = repair.range(of: marker) else { continue }
            let fresh = String(repair[range.upperBound...].prefix(36))
            repairs[number] = repair.replacingOccurrences(of: fresh, with: "fresh-\(number)")
            text = text.replacingOccurrences(of: fresh, with: "fresh-\(number)")
        }
        model = model.map { _ in Data(text.utf8) }
    }

    /// The error, or the report's parts and the start of the saved model.
    package var description: String {
        if let error { return "refused: \(error)" }
        return "version \(storedVersion ?? -1), defaulted \(fieldsDefaulted), unknown \(unknownKeysKept), "
            + "warnings \(warnings), repairs \(repairs), salvage \(salvage?.summary ?? "none"), "
            + String(decoding: model ?? Data(), as: UTF8.self).prefix(300)
    }
}
