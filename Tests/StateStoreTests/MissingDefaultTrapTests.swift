import Foundation
import StateModel
import StateStore
import Testing

/// The trap the getting-started guide shows: the `Codable` Swift synthesizes ignores a property's initial value
/// when it decodes, so a file without that key is corrupt to it; `@StateModel` gives the key its default.
@Suite("The missing-default trap of a synthesized Codable")
struct MissingDefaultTrapTests {
    /// Synthesized `Codable`: `= 12` is the memberwise initializer's default only.
    struct SynthesizedSettings: Codable, Sendable, Equatable {
        var theme: String
        var fontSize: Int = 12
    }

    /// The same declaration with the macro.
    @StateModel
    struct MacroSettings: Sendable, Equatable {
        var theme: String
        var fontSize: Int = 12
    }

    @Test func aFileWithoutTheFieldIsQuarantinedBySynthesizedCodableAndDefaultedByTheMacro() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = Data(#"{"theme":"dark","version":2}"#.utf8)
        try directory.write("synthesized.json", file)
        let synthesized = try StateFile(
            path: directory.file("synthesized.json"),
            schema: StateSchema(currentVersion: 2, firstVersion: 2, initial: { SynthesizedSettings(theme: "light") })
        ).load()
        #expect(synthesized.report.source == .quarantined)
        #expect(synthesized.model.theme == "light")  // the user's theme is gone
        let quarantined = try #require(synthesized.report.quarantine).movedTo
        #expect(try Data(contentsOf: URL(fileURLWithPath: quarantined)) == file)  // kept, byte for byte

        try directory.write("macro.json", file)
        let macro = try StateFile(
            path: directory.file("macro.json"),
            schema: StateSchema(currentVersion: 2, firstVersion: 2, initial: { MacroSettings(theme: "light") })
        ).load()
        #expect(macro.report.source == .file)
        #expect(macro.model == MacroSettings(theme: "dark", fontSize: 12))
        #expect(macro.report.fieldsDefaulted == ["fontSize": 1])
    }
}
