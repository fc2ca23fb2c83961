import Foundation
import StateStore
import Synchronization
import Testing

/// A reference a test can ask about: whether a step holds the only reference to it.
private final class Shared: Codable, Sendable {
    let text: String
    init(_ text: String) { self.text = text }
}

private struct Before: Codable, Sendable {
    var parts: [Shared]
}

private struct After: Codable, Sendable, Equatable {
    var texts: [String]
}

/// What a step saw, for the test to read.
private final class Seen: Sendable {
    let uniquelyReferenced = Mutex<[Bool]>([])
}

/// A step made with `consuming:` is handed the only reference to the decoded value, so that what it takes out of
/// it is freed as soon as it is converted (the peak memory of a migrating load).
@Suite("Migration steps that take the old value apart")
struct ConsumingMigrationTests {
    static let bytes = Data(#"{"version": 1, "parts": [{"text": "a"}, {"text": "b"}, {"text": "c"}]}"#.utf8)

    private static func schema(_ step: MigrationStep) throws -> StateSchema<After> {
        try StateSchema<After>(currentVersion: 2, migrations: [step], initial: { After(texts: []) })
    }

    @Test func theStepHoldsTheOnlyReferenceToWhatItTakes() throws {
        let seen = Seen()
        let step = MigrationStep(
            from: 1, Before.self, to: After.self,
            consuming: { old, _ in
                var parts = old.parts
                old.parts = []
                var texts: [String] = []
                for index in parts.indices {
                    let unique = isKnownUniquelyReferenced(&parts[index])
                    seen.uniquelyReferenced.withLock { $0.append(unique) }
                    texts.append(parts[index].text)
                }
                return After(texts: texts)
            })
        let decoded = try StateCodec(schema: try Self.schema(step)).decode(Self.bytes)
        #expect(decoded.model == After(texts: ["a", "b", "c"]))
        #expect(decoded.stepsApplied == [1...2])
        #expect(seen.uniquelyReferenced.withLock { $0 } == [true, true, true])
    }

    @Test func aStepThatReadsTheOldValueIsStillMadeWithATrailingClosure() throws {
        let step = MigrationStep(from: 1, Before.self, to: After.self) { old, context in
            context.warn("read \(old.parts.count) parts")
            return After(texts: old.parts.map(\.text))
        }
        let decoded = try StateCodec(schema: try Self.schema(step)).decode(Self.bytes)
        #expect(decoded.model == After(texts: ["a", "b", "c"]))
        #expect(decoded.warnings == ["read 3 parts"])
    }

    @Test func aReversibleStepTakesTheOldValueApartAndStillGoesDown() throws {
        let step = MigrationStep(
            from: 1, Before.self, to: After.self,
            consuming: { old, _ in
                let parts = old.parts
                old.parts = []
                return After(texts: parts.map(\.text))
            },
            revert: { new, _ in Before(parts: new.texts.map(Shared.init)) })
        let codec = StateCodec(schema: try Self.schema(step))
        let decoded = try codec.decode(Self.bytes)
        #expect(decoded.model == After(texts: ["a", "b", "c"]))
        let down = try codec.encode(decoded.model, downTo: 1)
        let parts = try JSONDecoder().decode(Before.self, from: down.data).parts.map(\.text)
        #expect(parts == ["a", "b", "c"])
    }
}
