import Foundation
import TestSupport
import Testing

/// workspaced links FoundationEssentials and not Foundation: no ICU data, no CoreFoundation, none of their
/// relocations and initializers at each start (docs/operations.md, "Foundation left out").
@Suite("workspaced without Foundation")
struct FoundationFreeBinaryTests {
    @Test("workspaced links FoundationEssentials, and neither Foundation nor its ICU data")
    func noFoundation() throws {
        let binary = try Data(contentsOf: URL(fileURLWithPath: ProductPaths.executable("workspaced")))
        // Sanity: the symbols are there (a module it does link shows).
        #expect(binary.range(of: Data("20FoundationEssentials".utf8)) != nil)
        // A dynamic build needs libFoundation.so; a static one carries Foundation's symbols and ICU's data.
        for marker in ["libFoundation.so", "10Foundation", "icudt", "__CFInitialize"] {
            #expect(binary.range(of: Data(marker.utf8)) == nil, "workspaced links \(marker)")
        }
    }
}
