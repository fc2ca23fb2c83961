import Foundation
import StateStore
import TestSupport
import Testing

@testable import WorkspaceModel

/// Issue 29: edits of the v4 fixture that reach each branch of the direct decoder (unknown fields of every kind
/// of value, escaped and reordered keys, `null` where each kind of field allows it or not, the envelope's forms,
/// duplicate keys at every level) load the same as through `Codable`; and the ones the direct decoder reads itself
/// are read directly.
@Suite("Direct decoder edits", .heavy)
struct DirectDecoderEditTests {
    /// One edit: the text replaced, its replacement, and whether the direct path reads the result itself.
    struct Edit: Sendable, CustomTestStringConvertible {
        let name: String
        let target: String
        let replacement: String
        let readDirectly: Bool

        var testDescription: String { name }
    }

    static let tab = #"{"folder": "/apollo/guidance", "id": "41111111-1111-4111-8111-111111111111"}"#
    static let owner = #"{"alias": "margaret", "email": "margaret@example.com"}"#

    static let edits: [Edit] = [
        Edit(name: "unchanged", target: "", replacement: "", readDirectly: true),
        Edit(
            name: "unknown fields of every kind",
            target: #""alias": "margaret""#,
            replacement: #""alias": "margaret", "s": "x\u00e9\n", "t": true, "n": null, "i": -42, "z": 0, "#
                + #""f": 1.5, "negativeZero": -0, "e": 1e2, "big": 12345678901234567890, "huge": 1e300, "#
                + #""long": 123456789012345678901234567890, "a": [1, "two", [3], {"four": 4}], "o": {"p": {"q": []}}"#,
            readDirectly: true),
        Edit(
            name: "unknown fields in a tab and at the root",
            target: Self.tab,
            replacement:
                #"{"folder": "/apollo/guidance", "pinnedAt": 3, "id": "41111111-1111-4111-8111-111111111111"}"#,
            readDirectly: true),
        Edit(
            name: "an unknown root key", target: #""version": 4"#, replacement: #""zz": [], "version": 4"#,
            readDirectly: true),
        Edit(name: "an escaped declared key", target: #""alias""#, replacement: #""\u0061lias""#, readDirectly: true),
        Edit(
            name: "an escaped unknown key", target: #""alias": "margaret""#,
            replacement: #""alias": "margaret", "\u00e9t\u00e9": 1"#, readDirectly: true),
        Edit(
            name: "keys in another order", target: Self.owner,
            replacement: #"{"email": "margaret@example.com", "alias": "margaret"}"#, readDirectly: true),
        Edit(
            name: "the version elsewhere", target: #""version": 4"#, replacement: #""version": 4, "after": 1"#,
            readDirectly: true),
        Edit(name: "the version as 4.0", target: #""version": 4"#, replacement: #""version": 4.0"#, readDirectly: true),
        Edit(
            name: "the version as a string", target: #""version": 4"#, replacement: #""version": "4""#,
            readDirectly: false),
        Edit(name: "the version null", target: #""version": 4"#, replacement: #""version": null"#, readDirectly: false),
        Edit(name: "a newer version", target: #""version": 4"#, replacement: #""version": 5"#, readDirectly: false),
        Edit(
            name: "a revision and lineage", target: #""version": 4"#,
            replacement: #""revision": 7, "lineage": "0123456789abcdef0123456789abcdef", "version": 4"#,
            readDirectly: true),
        Edit(
            name: "a negative revision", target: #""version": 4"#, replacement: #""revision": -1, "version": 4"#,
            readDirectly: false),
        Edit(
            name: "a lineage that is not one", target: #""version": 4"#, replacement: #""lineage": "", "version": 4"#,
            readDirectly: false),
        Edit(
            name: "minReaderVersion null", target: #""minReaderVersion": 4"#, replacement: #""minReaderVersion": null"#,
            readDirectly: true),
        Edit(
            name: "a defaulted field missing", target: #""focusedTabIndex": 0, "#, replacement: "", readDirectly: true),
        Edit(
            name: "a defaulted field null", target: #""focusedTabIndex": 0"#, replacement: #""focusedTabIndex": null"#,
            readDirectly: true),
        Edit(
            name: "an optional null", target: #""createdAt": "2025-01-02T03:04:05Z""#,
            replacement: #""createdAt": null"#, readDirectly: true),
        Edit(
            name: "a date with a fraction and an offset", target: "2025-01-02T03:04:05Z",
            replacement: "2025-01-02T05:04:05.25+02:00", readDirectly: true),
        Edit(
            name: "a date that is not one", target: "2025-01-02T03:04:05Z", replacement: "yesterday",
            readDirectly: false),
        Edit(
            name: "a required field null", target: #""alias": "margaret""#, replacement: #""alias": null"#,
            readDirectly: false),
        Edit(name: "a required field missing", target: #""alias": "margaret", "#, replacement: "", readDirectly: false),
        Edit(
            name: "an upper-case id", target: "41111111-1111-4111-8111-111111111111",
            replacement: "41111111-1111-4111-8111-11111111111A", readDirectly: true),
        Edit(
            name: "an id that is not one", target: "41111111-1111-4111-8111-111111111111", replacement: "4111",
            readDirectly: false),
        Edit(name: "an unknown view mode", target: #""columns""#, replacement: #""gallery""#, readDirectly: true),
        Edit(
            name: "a focused index as 0.0", target: #""focusedTabIndex": 0"#, replacement: #""focusedTabIndex": 0.0"#,
            readDirectly: true),
        Edit(
            name: "a focused index of 0.5", target: #""focusedTabIndex": 0"#, replacement: #""focusedTabIndex": 0.5"#,
            readDirectly: false),
        Edit(
            name: "a duplicate declared key", target: #""alias": "margaret""#,
            replacement: #""alias": "margaret", "alias": "m""#, readDirectly: false),
        Edit(
            name: "a duplicate escaped key", target: #""alias": "margaret""#,
            replacement: #""alias": "margaret", "\u0061lias": "m""#, readDirectly: false),
        Edit(
            name: "a duplicate unknown key", target: #""alias": "margaret""#,
            replacement: #""alias": "margaret", "x": 1, "x": 2"#, readDirectly: false),
        Edit(
            name: "a duplicate inside an unknown value", target: #""alias": "margaret""#,
            replacement: #""alias": "margaret", "x": {"y": 1, "y": 2}"#, readDirectly: false),
        Edit(
            name: "a duplicate version", target: #""version": 4"#, replacement: #""version": 4, "version": 4"#,
            readDirectly: false),
        Edit(
            name: "a duplicate record array", target: #""favorites": ["#,
            replacement: #""favorites": [], "favorites": ["#, readDirectly: false),
        Edit(
            name: "a trailing comma, which JSONDecoder allows", target: #""version": 4"#,
            replacement: #""version": 4,"#, readDirectly: true),
        Edit(
            name: "a byte order mark and spaces", target: "{\n  \"activeProjectID\"",
            replacement: "\u{FEFF}  {\n  \"activeProjectID\"", readDirectly: true),
        Edit(name: "text after the document", target: "", replacement: "", readDirectly: false),
        Edit(name: "invalid UTF-8 in a name", target: "Apollo", replacement: "Apo\u{FFFD}llo", readDirectly: false),
    ]

    @Test(arguments: edits)
    func anEditLoadsTheSameBothWays(edit: Edit) throws {
        let check = try DirectDifferential()
        var text = String(decoding: try Fixtures.data("versions/v4.json"), as: UTF8.self)
        if !edit.target.isEmpty {
            #expect(text.contains(edit.target), "the v4 fixture no longer holds \(edit.target)")
            text = text.replacingOccurrences(of: edit.target, with: edit.replacement)
        }
        var bytes = Data(text.utf8)
        switch edit.name {
        case "text after the document": bytes.append(contentsOf: Array(" x".utf8))
        case "invalid UTF-8 in a name":
            // U+FFFD's bytes become one byte that is no UTF-8 at all.
            let replacement = Data("\u{FFFD}".utf8)
            let range = try #require(bytes.range(of: replacement))
            bytes.replaceSubrange(range, with: [0xFF])
        default: break
        }
        let direct = check.check(edit.name, bytes)
        check.check(edit.name + " (salvaging)", bytes, salvaging: true)
        #expect(direct == edit.readDirectly, "\(edit.name): read directly: \(direct)")
    }
}
