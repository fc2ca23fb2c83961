import Foundation
import StateStore
import TestSupport
import Testing

@testable import WorkspaceModel

/// Issue 15, item 7: hostile and damaged workspace files, loaded as the daemon loads them (policy `salvage`, and
/// `quarantine` for the named cases). Each is checked by ``CorpusCheck``: no crash, no hang, and either a state
/// that saves the same bytes twice or the original kept once.
///
/// The loops are async and yield between files: run synchronously, they would hold the cooperative pool's threads
/// (one per core) for seconds, and the latency-bound tests beside them in the same process would wait that long.
@Suite("Corrupt input corpus on the workspace file", .timeLimit(.minutes(5)))
struct CorruptCorpusTests {
    static let versions = ["v1.json", "v2.json", "v3.json", "v4.json"]

    static func fixture(_ name: String) throws -> Data { try WorkspaceFixtures.data("versions/" + name) }

    static func text(_ name: String) throws -> String { String(decoding: try fixture(name), as: UTF8.self) }

    /// Every prefix of every version's fixture: only the prefixes that lack nothing but trailing white space load;
    /// every other one is quarantined once.
    @Test(arguments: versions)
    func everyTruncationLoadsOrIsQuarantinedOnce(version: String) async throws {
        let check = try CorpusCheck()
        let bytes = try Self.fixture(version)
        let lastBrace = try #require(bytes.lastIndex(of: UInt8(ascii: "}")))
        for length in 0..<bytes.count {
            await Task.yield()
            let expected: CorpusOutcome = length > lastBrace ? .loaded : .quarantined
            let outcome = try check.check("\(version) cut to \(length) bytes", bytes.prefix(length))
            #expect(outcome == expected, "\(version) cut to \(length) bytes")
        }
    }

    /// 1,000 single-bit flips at seeded random places of the four fixtures. Whatever a flip does (a letter in a
    /// name, a quote, a digit of the version), the load keeps its promise; the mix shows every path was taken.
    @Test func aThousandBitFlipsEachLoadSalvageOrQuarantineOnce() async throws {
        let check = try CorpusCheck()
        let fixtures = try Self.versions.map { ($0, try Self.fixture($0)) }
        var generator = SplitMix64(seed: 0x15_0007)
        var outcomes: [CorpusOutcome: Int] = [:]
        for round in 0..<1_000 {
            await Task.yield()
            let (name, original) = fixtures[round % fixtures.count]
            var bytes = original
            let offset = Int.random(in: 0..<bytes.count, using: &generator)
            let bit = UInt8(1) << UInt8.random(in: 0..<8, using: &generator)
            bytes[bytes.startIndex + offset] ^= bit
            let outcome = try check.check("\(name) with bit \(bit) flipped at byte \(offset)", bytes)
            if let outcome { outcomes[outcome, default: 0] += 1 }
        }
        #expect(outcomes.values.reduce(0, +) == 1_000, "\(outcomes)")
        for outcome in [CorpusOutcome.loaded, .salvaged, .quarantined] {
            #expect(outcomes[outcome, default: 0] > 0, "no flip came to \(outcome): \(outcomes)")
        }
    }

    /// Each value of the v1 and v4 fixtures, one at a time, replaced by a value of another type (a number for a
    /// string, text for a number, an object for an array, an array for an object, an array for null).
    @Test(arguments: ["v1.json", "v4.json"], CorruptFilePolicy.loadingPolicies)
    func aWrongTypeAtEveryKeyIsHandled(version: String, policy: CorruptFilePolicy) async throws {
        let check = try CorpusCheck()
        let tree = try JSONSerialization.jsonObject(with: try Self.fixture(version))
        let variants = WrongTypeVariants.every(in: tree)
        #expect(variants.count >= 20, "too few values in \(version) to test")
        var outcomes: [CorpusOutcome: Int] = [:]
        for (path, variant) in variants {
            await Task.yield()
            let bytes = try JSONSerialization.data(withJSONObject: variant, options: [.sortedKeys])
            let outcome = try check.check("\(version) with a wrong type at \(path)", bytes, policy: policy)
            if let outcome { outcomes[outcome, default: 0] += 1 }
            if path == "version" { #expect(outcome == .quarantined, "a version that is not a number loaded") }
        }
        #expect(outcomes[.quarantined, default: 0] > 0, "\(outcomes)")
        if policy == .salvage { #expect(outcomes[.salvaged, default: 0] > 0, "\(outcomes)") }
    }

    /// The named hostile files of issue 15, each with the outcome it must have under both loading policies.
    @Test(arguments: HostileFiles.all(), CorruptFilePolicy.loadingPolicies)
    func aHostileFileHasItsOutcome(file: HostileFile, policy: CorruptFilePolicy) throws {
        let check = try CorpusCheck()
        let outcome = try check.check(file.name, file.bytes, policy: policy)
        let expected = policy == .quarantine && file.expected == .salvaged ? .quarantined : file.expected
        if let expected { #expect(outcome == expected, "\(file.name) under \(policy)") }
    }
}

extension CorruptFilePolicy {
    /// The policies under which a corrupt file still loads (refuse only throws, and is tested elsewhere).
    static let loadingPolicies: [CorruptFilePolicy] = [.salvage, .quarantine]
}
