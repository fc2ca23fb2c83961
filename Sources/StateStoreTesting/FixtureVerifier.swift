import Foundation
import StateStore

/// Checks a folder of state files written by earlier releases against a schema: each one loads, round-trips,
/// and migrating it again changes nothing. Throws ``FixtureFailure`` naming the file and the check, so it
/// works in Swift Testing (`#expect(throws: Never.self)` or `try`) and XCTest (`XCTAssertNoThrow`) alike.
///
/// ```swift
/// @Test func everyShippedVersionLoads() throws {
///     let results = try FixtureVerifier(schema: try MySchema.make())
///         .verifyDirectory(Bundle.module.url(forResource: "Fixtures", withExtension: nil)!)
///     #expect(results.count >= 4)
/// }
/// ```
public struct FixtureVerifier<Model: Codable & Sendable & Equatable>: Sendable {
    /// The codec under test.
    public let codec: StateCodec<Model>

    /// A verifier for `schema`.
    public init(schema: StateSchema<Model>) {
        self.codec = StateCodec(schema: schema)
    }

    /// Verifies every `*.json` file in `directory` (not recursive), in name order.
    ///
    /// - Parameters:
    ///   - directory: The fixtures folder, such as `Bundle.module.url(forResource: "Fixtures", withExtension: nil)!`
    ///     for a folder the test target copies as a resource.
    ///   - requireEveryVersion: Also fail unless the folder holds a file for every version from the schema's first
    ///     to its current one (the rule: one fixture per schema change).
    /// - Returns: One result per file.
    /// - Throws: ``FixtureFailure`` naming the first file and check that failed.
    @discardableResult
    public func verifyDirectory(_ directory: URL, requireEveryVersion: Bool = true) throws -> [FixtureResult<Model>] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        guard !names.isEmpty else {
            throw FixtureFailure(file: directory.path, check: "fixtures", detail: "no *.json files in the folder")
        }
        let results = try names.map { try verifyFile(directory.appendingPathComponent($0)) }
        if requireEveryVersion {
            let schema = codec.schema
            let covered = Set(results.map(\.storedVersion))
            let missing = (schema.firstVersion...schema.currentVersion).filter { !covered.contains($0) }
            guard missing.isEmpty else {
                throw FixtureFailure(
                    file: directory.path, check: "coverage",
                    detail: "no fixture for version(s) \(missing.map(String.init).joined(separator: ", "))")
            }
        }
        return results
    }

    /// Verifies one file: it loads, round-trips, migrating twice changes nothing, and written down to every
    /// version the reverse steps reach it comes back unchanged (``verifyWayDown(_:name:)``).
    public func verifyFile(_ url: URL) throws -> FixtureResult<Model> {
        let file = url.lastPathComponent
        let bytes = try Data(contentsOf: url)
        return try verify(bytes, name: file)
    }

    /// Verifies bytes as ``verifyFile(_:)`` does; `name` appears in failures.
    public func verify(_ bytes: Data, name: String) throws -> FixtureResult<Model> {
        let first: DecodedState<Model>
        do {
            first = try codec.decode(bytes)
        } catch {
            throw FixtureFailure(file: name, check: "load", detail: error.description)
        }
        let written = try encode(first.model, name: name)
        let second: DecodedState<Model>
        do {
            second = try codec.decode(written)
        } catch {
            throw FixtureFailure(file: name, check: "round trip", detail: "the saved bytes do not load: \(error)")
        }
        guard second.model == first.model else {
            throw FixtureFailure(
                file: name, check: "round trip", detail: "decode → encode → decode gives a different model")
        }
        guard second.stepsApplied.isEmpty, second.fieldsDefaulted.isEmpty, second.repairs.isEmpty else {
            throw FixtureFailure(
                file: name, check: "idempotence",
                detail: "loading the migrated file again ran steps \(second.stepsApplied), defaulted "
                    + "\(second.fieldsDefaulted.keys.sorted()), repaired \(second.repairs)")
        }
        guard try encode(second.model, name: name) == written else {
            throw FixtureFailure(
                file: name, check: "idempotence", detail: "saving the migrated state twice gives different bytes")
        }
        guard first.unknownKeysDropped.isEmpty else {
            throw FixtureFailure(
                file: name, check: "unknown fields",
                detail:
                    "the model drops \(first.unknownKeysDropped.keys.sorted()), which it neither declares nor keeps: "
                    + "keep them with @StateModel's default or an UnknownFields property")
        }
        guard first.unknownKeysKept == second.unknownKeysKept else {
            throw FixtureFailure(
                file: name, check: "unknown fields",
                detail:
                    "kept \(first.unknownKeysKept.keys.sorted()) on load but \(second.unknownKeysKept.keys.sorted()) "
                    + "after a save")
        }
        try verifyStamp(second, name: name)
        try verifyWayDown(first.model, name: name)
        return FixtureResult(name: name, decoded: first, savedBytes: written)
    }

    /// Saves `decoded` as a `StateFile` does, with a revision and a lineage at the root, and checks
    /// that both read back and change nothing else: a model whose root declares the schema's revision or lineage
    /// key fails here, not on a user's disk.
    private func verifyStamp(_ decoded: DecodedState<Model>, name: String) throws {
        let revision = UInt64(decoded.storedVersion) + 41
        let lineage = Lineage(rawValue: "fixture-check")!
        let stamped: DecodedState<Model>
        do {
            stamped = try codec.decode(try codec.encode(decoded.model, revision: revision, lineage: lineage))
        } catch {
            throw FixtureFailure(
                file: name, check: "revision",
                detail: "the state saved with \(codec.schema.revisionKey) and \(codec.schema.lineageKey) does not load "
                    + "(does the model's root declare one of these keys? choose other keys in the schema): \(error)")
        }
        guard stamped.storedRevision == revision, stamped.storedLineage == lineage, stamped.model == decoded.model,
            stamped.unknownKeysKept == decoded.unknownKeysKept
        else {
            throw FixtureFailure(
                file: name, check: "revision",
                detail: "saved at revision \(revision) of lineage \(lineage), it loads at "
                    + "\(stamped.storedRevision.map(String.init) ?? "none") of \(stamped.storedLineage?.rawValue ?? "none")"
                    + (stamped.model == decoded.model ? "" : ", as another model"))
        }
    }

    private func encode(_ model: Model, name: String) throws -> Data {
        do {
            return try codec.encode(model)
        } catch {
            throw FixtureFailure(file: name, check: "save", detail: "\(error)")
        }
    }
}

/// What verifying one fixture found.
public struct FixtureResult<Model: Sendable>: Sendable {
    /// The fixture's file name.
    public var name: String
    /// The first load: model, stored version, steps, defaults, unknown keys, warnings, repairs.
    public var decoded: DecodedState<Model>
    /// The bytes the migrated state saves as.
    public var savedBytes: Data

    /// The version stored in the fixture.
    public var storedVersion: Int { decoded.storedVersion }
}

/// A fixture that failed a check.
public struct FixtureFailure: Error, Equatable, CustomStringConvertible {
    /// The fixture (or folder).
    public var file: String
    /// The check: `load`, `round trip`, `idempotence`, `unknown fields`, `revision`, `save`, `coverage`,
    /// `fixtures`.
    public var check: String
    /// What went wrong.
    public var detail: String

    /// `file: check failed: detail`.
    public var description: String { "\(file): \(check) failed: \(detail)" }
}
