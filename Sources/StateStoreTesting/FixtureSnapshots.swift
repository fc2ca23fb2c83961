import Foundation
import StateStore

/// Pins what loading each fixture produces, so that a rewrite of the model types (by hand, or onto `@StateModel`)
/// can be shown to change nothing: the bytes the next save writes, the load report's figures, or the error a
/// file that does not load gives.
///
/// A snapshot is recorded once, from the code before the change, into `<snapshots>/<fixture>.snapshot`, and
/// compared on every run after:
///
/// ```swift
/// @Test func loadingEveryFixtureGivesItsRecordedSnapshot() throws {
///     let compared = try FixtureSnapshots(schema: try MySchema.make())
///         .verify(fixtures: fixturesURL, snapshots: snapshotsURL, record: false)
///     #expect(compared.count >= 4)
/// }
/// ```
public struct FixtureSnapshots<Model: Codable & Sendable & Equatable>: Sendable {
    /// The codec under test.
    public let codec: StateCodec<Model>

    /// Snapshots for `schema`.
    public init(schema: StateSchema<Model>) {
        self.codec = StateCodec(schema: schema)
    }

    /// The snapshot of loading `bytes`: a line of the report's figures as sorted JSON, then the saved bytes; or
    /// one `error:` line when the file does not load.
    public func snapshot(of bytes: Data) throws -> Data {
        let decoded: DecodedState<Model>
        do {
            decoded = try codec.decode(bytes)
        } catch {
            return Data("error: \(error.description)\n".utf8)
        }
        let report: [String: JSONValue] = [
            "storedVersion": .integer(Int64(decoded.storedVersion)),
            "stepsApplied": .array(decoded.stepsApplied.map { .string("\($0.lowerBound)-\($0.upperBound)") }),
            "fieldsDefaulted": .object(decoded.fieldsDefaulted.mapValues { .integer(Int64($0)) }),
            "unknownKeysKept": .object(decoded.unknownKeysKept.mapValues { .integer(Int64($0)) }),
            "warnings": .array(decoded.warnings.map { .string($0) }),
            "repairs": .array(decoded.repairs.map { .string($0) }),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var snapshot = try encoder.encode(report)
        snapshot.append(contentsOf: Data("\n".utf8))
        snapshot.append(try codec.encode(decoded.model))
        return Self.namingFreshIDs(in: snapshot, input: bytes)
    }

    /// Replaces each UUID that is not in `input` (one a repair minted at random) with `<fresh-N>`, numbered in
    /// order of appearance, so that the snapshot is the same on every run.
    static func namingFreshIDs(in snapshot: Data, input: Data) -> Data {
        let text = String(decoding: snapshot, as: UTF8.self)
        let known = String(decoding: input, as: UTF8.self).lowercased()
        guard
            let pattern = try? NSRegularExpression(
                pattern: "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
        else { return snapshot }
        var names: [String: String] = [:]
        var result = ""
        var last = text.startIndex
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let range = Range(match.range, in: text) else { continue }
            let id = text[range].lowercased()
            result += text[last..<range.lowerBound]
            if known.contains(id) {
                result += text[range]
            } else {
                if names[id] == nil { names[id] = "<fresh-\(names.count + 1)>" }
                result += names[id]!
            }
            last = range.upperBound
        }
        result += text[last...]
        return Data(result.utf8)
    }

    /// Compares the snapshot of every `*.json` in `fixtures` (not recursive) with `<snapshots>/<name>.snapshot`,
    /// or writes it there when `record` is true.
    ///
    /// - Returns: The fixtures' names, in order.
    /// - Throws: ``FixtureFailure`` (check `snapshot`) naming the first fixture whose snapshot differs or is
    ///   missing.
    @discardableResult
    public func verify(fixtures: URL, snapshots: URL, record: Bool) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: fixtures.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        if record { try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true) }
        for name in names {
            let actual = try snapshot(of: try Data(contentsOf: fixtures.appendingPathComponent(name)))
            let url = snapshots.appendingPathComponent(name + ".snapshot")
            if record {
                try actual.write(to: url)
                continue
            }
            guard let expected = try? Data(contentsOf: url) else {
                throw FixtureFailure(file: name, check: "snapshot", detail: "no recorded snapshot at \(url.path)")
            }
            guard expected == actual else {
                throw FixtureFailure(
                    file: name, check: "snapshot",
                    detail: "loading it now gives\n\(String(decoding: actual, as: UTF8.self))\n"
                        + "instead of the recorded\n\(String(decoding: expected, as: UTF8.self))")
            }
        }
        return names
    }
}
