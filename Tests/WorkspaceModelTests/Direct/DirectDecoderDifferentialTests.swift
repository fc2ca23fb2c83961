import Foundation
import StateStore
import TestSupport
import Testing

@testable import WorkspaceModel

/// Issue 29: the direct decoder gives what the `Codable` path gives, on every fixture, on the corrupt corpus and on
/// edits that reach each of its branches, or gives way to it; and it is the path taken for the files a release
/// writes.
@Suite("Direct decoder against Codable", .heavy)
struct DirectDecoderDifferentialTests {
    static let folders = ["versions", "down", "edge", "salvage"]

    /// The fixtures of `folder`, by name.
    static func fixtures(_ folder: String) throws -> [(String, Data)] {
        let directory = Fixtures.root.appendingPathComponent(folder)
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            .filter { $0.hasSuffix(".json") }
            .map { ("\(folder)/\($0)", try Data(contentsOf: directory.appendingPathComponent($0))) }
    }

    /// Every fixture of every version loads the same both ways, strict and salvaging; the versions, the rolled
    /// back files and the edge cases are read directly except those the direct read leaves to `Codable` on
    /// purpose (a newer release's file, a salvage).
    @Test(arguments: folders)
    func everyFixtureLoadsTheSameBothWays(folder: String) throws {
        let check = try DirectDifferential()
        let leftToCodable: Set<String> = [
            "edge/newer-compatible.json", "edge/newer-incompatible.json", "salvage/v1-age-number.json",
            "salvage/v2-pane-viewmode-string.json", "salvage/v3-favorite-createdat-number.json",
            "salvage/v4-tab-missing-id.json",
        ]
        let fixtures = try Self.fixtures(folder)
        #expect(fixtures.count >= 4)
        for (name, data) in fixtures {
            let direct = check.check(name, data)
            check.check(name + " (salvaging)", data, salvaging: true)
            #expect(direct == !leftToCodable.contains(name), "\(name): read directly: \(direct)")
        }
    }

    /// Every prefix of the v1 and v4 fixtures, and 1,000 single-bit flips of all four: the same outcome both
    /// ways, strict and salvaging.
    @Test func truncationsAndBitFlipsLoadTheSameBothWays() async throws {
        let check = try DirectDifferential()
        for name in ["v1.json", "v4.json"] {
            let bytes = try Fixtures.data("versions/" + name)
            for length in 0..<bytes.count {
                await Task.yield()
                check.check("\(name) cut to \(length) bytes", bytes.prefix(length))
            }
        }
        var generator = SplitMix64(seed: 0x29_0001)
        let fixtures = try Self.fixtures("versions")
        var direct = 0
        for round in 0..<1_000 {
            if round % 50 == 0 { await Task.yield() }
            let (name, original) = fixtures[round % fixtures.count]
            var bytes = original
            let offset = Int.random(in: 0..<bytes.count, using: &generator)
            let bit = UInt8(1) << UInt8.random(in: 0..<8, using: &generator)
            bytes[bytes.startIndex + offset] ^= bit
            let label = "\(name) with bit \(bit) flipped at byte \(offset)"
            if check.check(label, bytes) { direct += 1 }
            check.check(label + " (salvaging)", bytes, salvaging: true)
        }
        // Most flips land in a name or an id's letter, which both paths read: the direct path took them.
        #expect(direct > 100, "only \(direct) of 1,000 flipped files were read directly")
    }

    /// A wrong type at each value of the v1 and v4 fixtures, and the named hostile files of the corrupt corpus.
    @Test func wrongTypesAndHostileFilesLoadTheSameBothWays() async throws {
        let check = try DirectDifferential()
        for name in ["v1.json", "v4.json"] {
            let tree = try JSONSerialization.jsonObject(with: try Fixtures.data("versions/" + name))
            for (path, variant) in WrongTypeVariants.every(in: tree) {
                await Task.yield()
                let bytes = try JSONSerialization.data(withJSONObject: variant, options: [.sortedKeys])
                check.check("\(name) with a wrong type at \(path)", bytes)
                check.check("\(name) with a wrong type at \(path) (salvaging)", bytes, salvaging: true)
            }
        }
        for file in HostileFiles.all() {
            await Task.yield()
            check.check(file.name, file.bytes)
            check.check(file.name + " (salvaging)", file.bytes, salvaging: true)
        }
    }
}
