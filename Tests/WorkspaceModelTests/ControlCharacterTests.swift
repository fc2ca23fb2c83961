import Testing

@testable import WorkspaceModel

/// `Validation.containsControl` decides ASCII text by its bytes and anything else by Unicode's categories: both
/// must give what the categories give.
@Suite struct ControlCharacterTests {
    /// What the categories say, as the validation said before its ASCII path.
    static func byCategory(_ value: String) -> Bool {
        value.unicodeScalars.contains {
            [.control, .lineSeparator, .paragraphSeparator].contains($0.properties.generalCategory)
        }
    }

    @Test(arguments: [
        "", "Groceries", "a b~", "tab\there", "bell\u{07}", "del\u{7F}", "nul\u{0}x", "newline\n",
        "café", "naïve\u{85}", "line\u{2028}sep", "para\u{2029}", "emoji 🎉", "ümlaut\u{1F}", "日本語",
    ])
    func eachStringIsJudgedAsItsCategoriesSay(_ value: String) {
        #expect(Validation.containsControl(value) == Self.byCategory(value), "\(value.unicodeScalars.map(\.value))")
    }

    @Test func everyASCIIByteIsJudgedAsItsCategorySays() {
        for byte in UInt8(0)...UInt8(127) {
            let value = "x" + String(UnicodeScalar(byte)) + "y"
            #expect(Validation.containsControl(value) == Self.byCategory(value), "byte \(byte)")
        }
    }
}
