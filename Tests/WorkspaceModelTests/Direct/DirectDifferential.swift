import Foundation
import StateStore
import Testing

@testable import WorkspaceModel
@testable import WorkspaceStorage

/// Loads bytes twice, straight into the model (the direct read, falling back to `Codable` as a load does) and
/// through `Codable` alone, and records an issue unless both give the same state and the same report, or refuse
/// with the same error: issue 29's promise that the direct path changes nothing but speed.
struct DirectDifferential {
    let direct: StateCodec<Workspace>
    let codable: StateCodec<Workspace>

    init() throws {
        direct = StateCodec(schema: try WorkspaceSchema.make())
        var codable = direct
        codable.readsDirectly = false
        self.codable = codable
    }

    /// What a decode came to, with everything a report shows and the model as the bytes it saves.
    struct Outcome: Equatable, CustomStringConvertible {
        var model: Data?
        var storedVersion: Int?
        var storedMinReaderVersion: Int?
        var storedRevision: UInt64?
        var storedLineage: String?
        var stepsApplied: [ClosedRange<Int>] = []
        var fieldsDefaulted: [String: Int] = [:]
        var fieldsTakenBack: [String: Int] = [:]
        var unknownKeysKept: [String: Int] = [:]
        var warnings: [String] = []
        var repairs: [String] = []
        var isNewerCompatible = false
        var salvage: SalvageReport?
        var error: StateDecodingError?

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

        var description: String {
            if let error { return "refused: \(error)" }
            return "version \(storedVersion ?? -1), defaulted \(fieldsDefaulted), unknown \(unknownKeysKept), "
                + "warnings \(warnings), repairs \(repairs), salvage \(salvage?.summary ?? "none"), "
                + String(decoding: model ?? Data(), as: UTF8.self).prefix(300)
        }
    }

    /// Decodes `data` both ways (`salvaging` as a load under the salvage policy does), records an issue naming
    /// `name` when the outcomes differ, and returns whether the direct read was used (no fallback).
    @discardableResult
    func check(
        _ name: String, _ data: Data, salvaging: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        let (directOutcome, fallback) = Self.outcome(direct, data, salvaging: salvaging)
        let (codableOutcome, _) = Self.outcome(codable, data, salvaging: salvaging)
        #expect(
            directOutcome == codableOutcome, "\(name): direct \(directOutcome) ≠ Codable \(codableOutcome)",
            sourceLocation: sourceLocation)
        return directOutcome.error == nil && fallback == nil
    }

    /// The decode's outcome and, when it loaded, why it fell back to `Codable` (nil when read directly).
    static func outcome(
        _ codec: StateCodec<Workspace>, _ data: Data, salvaging: Bool
    ) -> (Outcome, String?) {
        do {
            let decoded = try codec.decode(data, salvaging: salvaging)
            var outcome = Outcome()
            outcome.model = try? codec.encode(decoded.model)
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
            return (Outcome(error: error), nil)
        }
    }
}
