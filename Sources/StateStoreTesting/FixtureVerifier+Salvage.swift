import Foundation
import StateStore

extension FixtureVerifier {
    /// Verifies a fixture that must need a salvage: the strict load refuses it, the salvage reads it, and what the
    /// salvage keeps saves as a file that loads strictly, round-trips and needs no salvage again.
    ///
    /// ```swift
    /// let result = try verifier.verifySalvage(fixtures.appendingPathComponent("v2-pane-viewmode-string.json"))
    /// #expect(result.salvage.droppedRecords.map(\.path) == ["projects[0].panes[1]"])
    /// ```
    ///
    /// - Returns: The salvaged load and its `SalvageReport`, for assertions on what was dropped, coerced and
    ///   defaulted.
    public func verifySalvage(_ url: URL) throws -> SalvageResult<Model> {
        let name = url.lastPathComponent
        let bytes = try Data(contentsOf: url)
        if (try? codec.decode(bytes)) != nil {
            throw FixtureFailure(file: name, check: "salvage", detail: "the file loads as it is; nothing to salvage")
        }
        let salvaged: DecodedState<Model>
        do {
            salvaged = try codec.decode(bytes, salvaging: true)
        } catch {
            throw FixtureFailure(file: name, check: "salvage", detail: "the salvage failed: \(error)")
        }
        guard let report = salvaged.salvage else {
            throw FixtureFailure(file: name, check: "salvage", detail: "the salvage reported nothing")
        }
        let written: Data
        do {
            written = try codec.encode(salvaged.model)
        } catch {
            throw FixtureFailure(file: name, check: "save", detail: "\(error)")
        }
        let result = try verify(written, name: name + " (salvaged)")
        guard result.decoded.model == salvaged.model else {
            throw FixtureFailure(
                file: name, check: "round trip", detail: "the salvaged state loads back as a different model")
        }
        return SalvageResult(name: name, decoded: salvaged, salvage: report, savedBytes: written)
    }
}

/// What verifying a fixture that needs a salvage found.
public struct SalvageResult<Model: Sendable>: Sendable {
    /// The fixture's file name.
    public var name: String
    /// The salvaged load: model, stored version, steps, repairs.
    public var decoded: DecodedState<Model>
    /// What the salvage dropped, coerced and defaulted.
    public var salvage: SalvageReport
    /// The bytes the salvaged state saves as (they load strictly).
    public var savedBytes: Data
}
