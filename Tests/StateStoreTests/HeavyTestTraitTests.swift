import TestSupport
import Testing

/// TestSupport's `.heavy`: a test that carries it runs on the heavy tests' lane, before and after it suspends and
/// in its child tasks; a test without it runs on the cooperative pool.
@Suite struct HeavyTestTraitTests {
    /// The name of the executor whose thread this is, if it is one of TestSupport's.
    static func lane() -> String? { ThreadTaskExecutor.current }

    @Test(.heavy) func aSynchronousTestRunsOnTheLane() {
        #expect(Self.lane() == "heavy tests")
    }

    @Test(.heavy) func anAsynchronousTestStaysOnTheLaneAndSoDoItsChildren() async throws {
        #expect(Self.lane() == "heavy tests")
        try await Task.sleep(for: .milliseconds(10))
        #expect(Self.lane() == "heavy tests")
        async let child = Self.lane()
        #expect(await child == "heavy tests")
        // An unstructured task does not inherit the preference.
        #expect(await Task { Self.lane() }.value == nil)
    }

    @Test(.heavy, arguments: [1, 2])
    func eachCaseRunsOnTheLane(number: Int) {
        #expect(Self.lane() == "heavy tests")
    }

    @Test func withoutTheTraitATestRunsOnThePool() {
        #expect(Self.lane() == nil)
    }

    /// The trait on a suite reaches each of its tests.
    @Suite(.heavy) struct InASuite {
        @Test func aTestOfTheSuiteRunsOnTheLane() {
            #expect(HeavyTestTraitTests.lane() == "heavy tests")
        }
    }
}
