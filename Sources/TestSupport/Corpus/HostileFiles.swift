import Foundation

/// One named hostile workspace file and the outcome it must have under policy `salvage` (under `quarantine` a
/// salvage becomes a quarantine); `expected` is `nil` where either outcome keeps the promise.
package struct HostileFile: Sendable, CustomStringConvertible {
    /// What the file is (the test argument's name).
    package let name: String
    /// Its bytes.
    package let bytes: Data
    /// The outcome it must have under `salvage`, `nil` when either keeps the promise.
    package let expected: CorpusOutcome?

    /// The name.
    package var description: String { name }
}

/// The named cases of issue 15, item 7, built from the v4 fixture.
package enum HostileFiles {
    /// Every named case.
    package static func all() -> [HostileFile] {
        let v4 = String(decoding: (try? WorkspaceFixtures.data("versions/v4.json")) ?? Data(), as: UTF8.self)
        let deep = 10_000
        let opened = String(repeating: "[", count: deep)
        let closed = String(repeating: "]", count: deep)
        func edited(_ name: String, _ edits: [(String, String)], _ expected: CorpusOutcome?) -> HostileFile {
            var text = v4
            for (target, replacement) in edits {
                precondition(text.contains(target), "the v4 fixture no longer holds \(target)")
                text = text.replacingOccurrences(of: target, with: replacement)
            }
            return HostileFile(name: name, bytes: Data(text.utf8), expected: expected)
        }
        func edited(
            _ name: String, _ target: String, _ replacement: String, _ expected: CorpusOutcome?
        ) -> HostileFile {
            edited(name, [(target, replacement)], expected)
        }
        func raw(_ name: String, _ bytes: [UInt8], _ expected: CorpusOutcome?) -> HostileFile {
            HostileFile(name: name, bytes: Data(bytes), expected: expected)
        }
        func text(_ name: String, _ text: String, _ expected: CorpusOutcome?) -> HostileFile {
            raw(name, Array(text.utf8), expected)
        }
        let apollo = Array(#""name": "Apollo""#.utf8)
        func withName(_ bytes: [UInt8]) -> [UInt8] {
            let body = Array(v4.utf8)
            let start = body.firstRange(of: apollo)!.lowerBound
            return Array(body[..<start]) + Array(#""name": "Apo"#.utf8) + bytes + Array(#"llo""#.utf8)
                + Array(body[(start + apollo.count)...])
        }
        return [
            text("an empty file", "", .quarantined),
            text("white space only", " \n\t\n", .quarantined),
            text("not JSON", "projects: Apollo\n", .quarantined),
            text("an empty array", "[]", .quarantined),
            text("the file inside an array", "[" + v4 + "]", .quarantined),
            text("a string", #""version 4""#, .quarantined),
            text("null", "null", .quarantined),
            raw("a byte order mark before the file", [0xEF, 0xBB, 0xBF] + Array(v4.utf8), .loaded),
            raw("invalid UTF-8 in a name", withName([0xFF]), .quarantined),
            raw("an overlong UTF-8 slash in a name", withName([0xC0, 0xAF]), .quarantined),
            raw("a raw NUL in a name", withName([0x00]), .quarantined),
            edited("an escaped NUL in a name", #""name": "Apollo""#, #""name": "Apo\u0000llo""#, .loaded),
            edited("a lone surrogate escape in a name", #""name": "Apollo""#, #""name": "Apo\ud800llo""#, nil),
            text("nesting 10,000 deep", opened + closed, .quarantined),
            text("nesting 10,000 deep, never closed", opened, .quarantined),
            edited(
                "nesting 10,000 deep in an unknown field", #""version": 4"#,
                #""version": 4, "deep": "# + opened + closed, .quarantined),
            edited("a duplicate version key", #""version": 4"#, #""version": 4, "version": 3"#, .quarantined),
            edited(
                "a duplicate key in a project", #""name": "Apollo","#, #""name": "Apollo", "name": "Gemini","#,
                .salvaged),
            edited("the version as a string", #""version": 4"#, #""version": "4""#, .quarantined),
            edited("a negative version", #""version": 4"#, #""version": -1"#, .quarantined),
            edited("a fractional version", #""version": 4"#, #""version": 1.5"#, .quarantined),
            edited("version 0", #""version": 4"#, #""version": 0"#, .quarantined),
            edited("a version of 1e30", #""version": 4"#, #""version": 1e30"#, .quarantined),
            edited(
                "a version past every integer", #""version": 4"#, #""version": 123456789012345678901234567890"#,
                .quarantined),
            edited(
                "a future version this release may not read",
                [(#""minReaderVersion": 4"#, #""minReaderVersion": 99"#), (#""version": 4"#, #""version": 99"#)],
                .refusedNewer),
            edited(
                "a minimum reader version above the file's own", #""minReaderVersion": 4"#, #""minReaderVersion": 99"#,
                nil),
            edited("a future version this release may read", #""version": 4"#, #""version": 99"#, .loaded),
            edited(
                "a focused tab index past every integer", #""focusedTabIndex": 0"#,
                #""focusedTabIndex": 123456789012345678901234567890"#, nil),
            edited(
                "a huge exact number in an unknown field", #""version": 4"#,
                #""version": 4, "extra": 123456789012345678901234567890.125"#, .loaded),
            edited("1e400 in an unknown field", #""version": 4"#, #""version": 4, "extra": 1e400"#, nil),
        ]
    }
}
