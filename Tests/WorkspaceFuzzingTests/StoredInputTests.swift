import Foundation
import Testing
import WorkspaceFuzzing

/// Every input stored for a fuzz target — the seeds `make fuzz` starts from and every crash libFuzzer found, kept
/// as a regression fixture under `Fixtures/<target>/` — keeps its promise in the ordinary build.
@Suite("Stored fuzz inputs")
struct StoredInputTests {
    static var root: URL { Bundle.module.url(forResource: "Fixtures", withExtension: nil)! }

    static func inputs(_ target: FuzzTarget) throws -> [(name: String, bytes: Data)] {
        let directory = root.appendingPathComponent(target.rawValue)
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().map {
            ($0, try Data(contentsOf: directory.appendingPathComponent($0)))
        }
    }

    @Test(arguments: FuzzTarget.allCases)
    func everyStoredInputKeepsItsPromise(target: FuzzTarget) async throws {
        let inputs = try Self.inputs(target)
        #expect(inputs.count >= 3, "too few seeds for \(target.rawValue)")
        let checker = try target.makeChecker()
        for (name, bytes) in inputs {
            let finding = await checker.check(bytes)
            #expect(finding == nil, "\(target.rawValue)/\(name): \(finding.map(String.init(describing:)) ?? "")")
        }
    }
}
