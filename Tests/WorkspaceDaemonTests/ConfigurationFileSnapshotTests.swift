import Configuration
import Testing
import WorkspaceDaemon

/// The configuration file's snapshot, read with the state file's JSON reader: the values and conversions of
/// swift-configuration's `JSONSnapshot`, which the daemon used before it left Foundation out.
@Suite("Configuration file snapshot")
struct ConfigurationFileSnapshotTests {
    static func snapshot(_ text: String) throws -> ConfigurationFileSnapshot {
        let bytes = Array(text.utf8)
        return try ConfigurationFileSnapshot(data: bytes.span.bytes, providerName: "test", parsingOptions: .default)
    }

    static func content(
        _ snapshot: ConfigurationFileSnapshot, _ key: String, _ type: ConfigType
    ) throws
        -> ConfigContent?
    {
        try snapshot.value(forKey: AbsoluteConfigKey(key.split(separator: ".").map(String.init)), type: type).value?
            .content
    }

    @Test("nested objects give dotted keys; null is no value; a later duplicate wins")
    func keysAndNulls() throws {
        let snapshot = try Self.snapshot(
            #"{"a": {"b": {"c": "deep"}}, "gone": null, "twice": 1, "twice": 2, "later": 1, "later": null}"#)
        #expect(try Self.content(snapshot, "a.b.c", .string) == .string("deep"))
        #expect(try Self.content(snapshot, "gone", .string) == nil)
        #expect(try Self.content(snapshot, "twice", .int) == .int(2))
        #expect(try Self.content(snapshot, "later", .int) == nil)
        #expect(try Self.content(snapshot, "missing", .int) == nil)
        #expect(snapshot.values.count == 2)
    }

    @Test("numbers and Booleans convert to one another as JSONSnapshot converts them")
    func numbers() throws {
        let snapshot = try Self.snapshot(
            #"{"whole": 2.0, "exponent": 2e0, "fraction": 1.5, "yes": true, "no": false, "big": 1e300, "int": -7}"#)
        #expect(try Self.content(snapshot, "whole", .int) == .int(2))
        #expect(try Self.content(snapshot, "exponent", .int) == .int(2))
        #expect(try Self.content(snapshot, "fraction", .double) == .double(1.5))
        #expect(throws: (any Error).self) { try Self.content(snapshot, "fraction", .int) }
        #expect(try Self.content(snapshot, "yes", .int) == .int(1))
        #expect(try Self.content(snapshot, "no", .bool) == .bool(false))
        #expect(try Self.content(snapshot, "int", .bool) == .bool(true))
        #expect(try Self.content(snapshot, "int", .double) == .double(-7))
        #expect(try Self.content(snapshot, "big", .double) == .double(1e300))
        #expect(throws: (any Error).self) { try Self.content(snapshot, "int", .string) }
        #expect(throws: (any Error).self) { try Self.content(snapshot, "yes", .string) }
    }

    @Test("arrays hold strings, or numbers and Booleans, alone")
    func arrays() throws {
        let snapshot = try Self.snapshot(#"{"names": ["a", "b"], "empty": [], "numbers": [1, 2.5, true]}"#)
        #expect(try Self.content(snapshot, "names", .stringArray) == .stringArray(["a", "b"]))
        #expect(try Self.content(snapshot, "empty", .stringArray) == .stringArray([]))
        #expect(try Self.content(snapshot, "empty", .intArray) == .intArray([]))
        #expect(try Self.content(snapshot, "numbers", .doubleArray) == .doubleArray([1, 2.5, 1]))
        #expect(throws: (any Error).self) { try Self.content(snapshot, "numbers", .intArray) }
        #expect(throws: (any Error).self) { try Self.content(snapshot, "names", .intArray) }
        for refused in [#"{"a": ["x", 1]}"#, #"{"a": [1, "x"]}"#, #"{"a": [{}]}"#, #"{"a": [null]}"#, #"{"a": [[1]]}"#]
        {
            #expect(throws: (any Error).self, "\(refused)") { try Self.snapshot(refused) }
        }
    }

    @Test("a byte order mark and commas that only close a list are taken; the top level must be an object")
    func leniency() throws {
        let snapshot = try Self.snapshot("\u{FEFF}" + #"{"a": [1, 2,], "b": {"c": "x,",  },}"#)
        #expect(try Self.content(snapshot, "a", .intArray) == .intArray([1, 2]))
        #expect(try Self.content(snapshot, "b.c", .string) == .string("x,"))
        for refused in ["[1]", "\"text\"", "12", "{", #"{"a": 1,, }"#, "{,}"] {
            #expect(throws: (any Error).self, "\(refused)") { try Self.snapshot(refused) }
        }
    }

    @Test("the strict text keeps strings whole, escaped quotes included")
    func strictText() {
        func strict(_ text: String) -> String {
            String(decoding: ConfigurationJSONText.strict(Array(text.utf8)), as: UTF8.self)
        }
        #expect(strict(#"{"a": "x,}", "b": "\",]",}"#) == #"{"a": "x,}", "b": "\",]"}"#)
        #expect(strict("\u{FEFF}{}") == "{}")
        #expect(strict("[1 , \n ]") == "[1  \n ]")
    }
}
