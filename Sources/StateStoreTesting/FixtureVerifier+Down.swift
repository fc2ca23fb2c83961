import Foundation
import StateStore

extension FixtureVerifier {
    /// Checks the way down for a state: written as every version the reverse steps reach, each file loads as
    /// that version and migrates up to the same model, and saving it gives the same bytes as saving the state
    /// itself, unknown fields compared by their values (one a reverse step set aside comes back without its
    /// text). ``verify(_:name:)`` runs it on every fixture; call it directly for a state built in a test.
    ///
    /// - Returns: The state written as each version from `StateSchema.lowestReachableVersion` up to the one
    ///   below the current version, lowest first.
    @discardableResult
    public func verifyWayDown(_ model: Model, name: String) throws -> [DowngradedState] {
        let schema = codec.schema
        let saved: Data
        do {
            saved = try values(of: model)
        } catch {
            throw FixtureFailure(file: name, check: "save", detail: "\(error)")
        }
        var written: [DowngradedState] = []
        for version in schema.lowestReachableVersion..<schema.currentVersion {
            let check = "down to version \(version)"
            let down: DowngradedState
            do {
                down = try codec.encode(model, downTo: version)
            } catch {
                throw FixtureFailure(file: name, check: check, detail: error.description)
            }
            let up: DecodedState<Model>
            do {
                up = try codec.decode(down.data)
            } catch {
                throw FixtureFailure(file: name, check: check, detail: "the file written does not load: \(error)")
            }
            guard up.storedVersion == version else {
                throw FixtureFailure(
                    file: name, check: check, detail: "the file written reads as version \(up.storedVersion)")
            }
            guard up.model == model else {
                throw FixtureFailure(
                    file: name, check: check,
                    detail: "down then up gives another model (a field the reverse step neither sets aside nor "
                        + "takes back?); set aside \(down.fieldsSetAside.keys.sorted()), taken back "
                        + "\(up.fieldsTakenBack.keys.sorted()), defaulted \(down.fieldsDefaulted.keys.sorted())")
            }
            guard (try? values(of: up.model)) == saved else {
                throw FixtureFailure(
                    file: name, check: check, detail: "down then up saves other bytes than the state itself")
            }
            written.append(down)
        }
        return written
    }

    /// The bytes of `model` with every unknown field written as its value: a value a reverse step sets aside
    /// (a version 2 tab in a version 1 pane, say) comes back with its values, not the text it was read as.
    private func values(of model: Model) throws -> Data {
        try codec.encode(model, version: nil, minReaderVersion: nil, compact: false)
    }

    /// Checks a down fixture: `model` written as `version` gives exactly `expected` (the bytes the older release
    /// will read), and those bytes load back as `model`.
    ///
    /// - Parameters:
    ///   - model: The current-version state to write down.
    ///   - version: The older version to write it as.
    ///   - expected: The fixture: the bytes that version must get.
    ///   - name: The fixture's name, for the failure's sentence.
    ///   - prettyPrinted: Whether the fixture is indented (readable in review) rather than compact, as state files
    ///     are written by default.
    /// - Throws: ``FixtureFailure`` naming the check that failed.
    public func verifyDown(
        _ model: Model, to version: Int, expected: Data, name: String, prettyPrinted: Bool = false
    ) throws {
        let down: DowngradedState
        do {
            down = try StateCodec(schema: codec.schema, prettyPrinted: prettyPrinted).encode(model, downTo: version)
        } catch {
            throw FixtureFailure(file: name, check: "down fixture", detail: error.description)
        }
        guard down.data == expected else {
            throw FixtureFailure(
                file: name, check: "down fixture",
                detail: "written as version \(version) it differs from the fixture:\n"
                    + String(decoding: down.data, as: UTF8.self))
        }
        guard (try? codec.decode(expected))?.model == model else {
            throw FixtureFailure(
                file: name, check: "down fixture", detail: "the fixture does not load back as the state")
        }
    }
}
