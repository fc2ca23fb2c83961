import Testing
import WorkspaceAPI

/// The change options' one wire form: what the client writes (`?durable=true`, `If-Match`) is what the daemon
/// reads, and a malformed one is refused with the field and message docs/api.md gives.
@Suite("change options")
struct ChangeOptionsTests {
    static let tag = WorkspaceETag(lineage: "9f2c4e1a7b3d5e60", revision: 12)

    /// Parses the options with the `If-Match` elements of `ifMatch`.
    private func parse(
        query: String? = nil, header: String? = nil, ifMatch: [String] = []
    ) throws(ChangeOptionsError) -> ChangeOptions {
        try ChangeOptions(durableQuery: query, durableHeader: header, ifMatch: ifMatch)
    }

    @Test(
        "a flag is true, 1, yes or empty, or false, 0 or no, in any case",
        arguments: [
            ("true", true), ("TRUE", true), ("1", true), ("yes", true), ("", true),
            ("false", false), ("False", false), ("0", false), ("no", false),
        ])
    func flags(value: String, durable: Bool) throws {
        #expect(try parse(query: value).durable == durable)
        #expect(try parse(header: value).durable == durable)
    }

    @Test("either flag asks for durability; none asks for nothing")
    func eitherFlag() throws {
        #expect(try parse(query: "false", header: "true").durable)
        #expect(try parse(query: "true", header: "false").durable)
        #expect(try parse() == ChangeOptions())
    }

    @Test("a malformed flag names itself")
    func malformedFlag() {
        #expect(throws: ChangeOptionsError.invalidFlag(name: "durable", value: "maybe")) {
            try parse(query: "maybe")
        }
        #expect(throws: ChangeOptionsError.invalidFlag(name: "Workspaced-Durable", value: "perhaps")) {
            try parse(header: "perhaps")
        }
        let error = ChangeOptionsError.invalidFlag(name: "durable", value: "2")
        #expect(error.description == "durable must be true or false")
        #expect(error.field == "durable")
    }

    @Test("the query is read first, then the header, then If-Match")
    func order() {
        #expect(throws: ChangeOptionsError.invalidFlag(name: "durable", value: "x")) {
            try parse(query: "x", header: "y", ifMatch: ["z"])
        }
        #expect(throws: ChangeOptionsError.invalidFlag(name: "Workspaced-Durable", value: "y")) {
            try parse(query: "1", header: "y", ifMatch: ["z"])
        }
    }

    @Test("If-Match: none or * is no guard")
    func noGuard() throws {
        #expect(try parse(ifMatch: []).ifMatch == nil)
        #expect(try parse(ifMatch: ["*"]).ifMatch == nil)
        #expect(try parse(ifMatch: [" * "]).ifMatch == nil)
    }

    @Test("If-Match: tags quoted, unquoted or weak, and bare revisions that match nothing")
    func tags() throws {
        let other = WorkspaceETag(lineage: "other", revision: 3)
        let options = try parse(ifMatch: [" \"9f2c4e1a7b3d5e60.12\" ", "W/\"other.3\"", "\"7\"", "8"])
        #expect(options.ifMatch == [.tag(Self.tag), .tag(other), .bareRevision(7), .bareRevision(8)])
        #expect(IfMatchTag.tag(Self.tag).matches(Self.tag))
        #expect(!IfMatchTag.tag(other).matches(Self.tag))
        #expect(!IfMatchTag.bareRevision(12).matches(Self.tag))
    }

    @Test("If-Match of empty elements only is a guard that matches nothing")
    func emptyElements() throws {
        #expect(try parse(ifMatch: ["", " "]).ifMatch == [])
    }

    @Test("a malformed If-Match names the header", arguments: [["abc"], ["*", "\"a.1\""], ["\"a.1\"", "a."]])
    func malformedIfMatch(elements: [String]) {
        #expect(throws: ChangeOptionsError.self) { try parse(ifMatch: elements) }
        let error = ChangeOptionsError.invalidIfMatch(value: "abc")
        #expect(error.field == "If-Match")
        #expect(
            error.description
                == "If-Match must be an ETag such as \"9f2c4e1a7b3d5e60.12\" (from GET /v1/workspace or a change)")
    }

    @Test("what the client writes, the daemon reads back", arguments: [false, true])
    func roundTrip(durable: Bool) throws {
        for options in [
            ChangeOptions(durable: durable), ChangeOptions(durable: durable, ifMatch: Self.tag),
            {
                var options = ChangeOptions(durable: durable)
                options.ifMatch = [.tag(Self.tag), .bareRevision(4)]
                return options
            }(),
        ] {
            let target = options.target("/v1/projects")
            let query = target.split(separator: "?").dropFirst().first.map { query -> String in
                #expect(query.hasPrefix("durable="))
                return String(query.dropFirst("durable=".count))
            }
            #expect(target.hasPrefix("/v1/projects"))
            #expect(options.headers.allSatisfy { $0.0 == "If-Match" })
            // HTTP's list syntax: each header's value split at its commas.
            let elements = options.headers.flatMap { $0.1.split(separator: ",").map(String.init) }
            #expect(try parse(query: query, ifMatch: elements) == options, "\(target) \(options.headers)")
        }
    }
}
