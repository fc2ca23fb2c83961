/// One request the daemon must refuse with a 4xx without changing anything.
struct MalformedCase: Sendable, CustomStringConvertible {
    var name: String
    var method: String
    var target: String
    var headers: [(String, String)] = []
    var body: [UInt8] = []
    /// The exact status expected, when the contract names one.
    var status: Int?

    var description: String { "\(name): \(method) \(target)" }
}

/// The records the corpus aims at (they exist in the daemon before it runs).
struct CorpusTargets {
    var projectID: String
    var paneID: String
    var tabID: String
    var favoriteID: String
}

/// At least 100 malformed requests: broken JSON, wrong types, huge bodies, bad UTF-8, path tricks, unknown
/// fields, missing and unknown ids, unknown enum values, control characters, bad name lengths, bad parameters,
/// unknown routes and methods.
func malformedCorpus(_ ids: CorpusTargets) -> [MalformedCase] {
    let unknownID = "00000000-0000-4000-8000-000000000000"
    // (method, target, a valid body) for every operation that takes a body.
    let bodyRoutes: [(String, String, String)] = [
        ("POST", "/v1/projects", #"{"name": "N", "layout": "single"}"#),
        ("PATCH", "/v1/projects/\(ids.projectID)", #"{"name": "N"}"#),
        ("POST", "/v1/projects/\(ids.projectID)/panes", #"{"folder": "/f"}"#),
        ("PATCH", "/v1/panes/\(ids.paneID)", #"{"folder": "/f"}"#),
        ("POST", "/v1/panes/\(ids.paneID)/tabs", #"{"folder": "/f"}"#),
        ("POST", "/v1/favorites", #"{"name": "N", "path": "/p"}"#),
        ("PUT", "/v1/active-project", #"{"projectID": null}"#),
        ("PATCH", "/v1/owner", #"{"alias": "a"}"#),
    ]
    var cases: [MalformedCase] = []
    func add(_ name: String, _ method: String, _ target: String, _ body: String, status: Int? = 400) {
        cases.append(MalformedCase(name: name, method: method, target: target, body: Array(body.utf8), status: status))
    }

    // Broken JSON, and JSON that is not an object, on every body route.
    let broken = ["", "{", "{\"name\": ", "nul", "[]", "\"text\"", "42", "{'name': 'x'}", "{\"a\":1,}", "}{"]
    for (method, target, _) in bodyRoutes {
        for text in broken { add("broken JSON \(text.debugDescription)", method, target, text) }
    }
    // Unknown fields on every body route (the valid body plus one key).
    for (method, target, valid) in bodyRoutes {
        add("unknown field", method, target, String(valid.dropLast()) + #", "color": "red"}"#)
        add("unknown field id", method, target, String(valid.dropLast()) + #", "id": "\#(unknownID)"}"#)
    }
    // Bad UTF-8 inside otherwise valid bodies.
    for (method, target, _) in bodyRoutes.prefix(6) {
        var body = Array(#"{"name": "x"#.utf8) + [0xFF, 0xFE] + Array(#"", "layout": "single"}"#.utf8)
        cases.append(
            MalformedCase(name: "invalid UTF-8 bytes", method: method, target: target, body: body, status: 400))
        body = Array(#"{"folder": "/a"#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8)
        cases.append(MalformedCase(name: "UTF-8 surrogate", method: method, target: target, body: body, status: 400))
    }
    // Wrong types and missing fields.
    let typed: [(String, String, String)] = [
        ("POST", "/v1/projects", #"{"name": 1, "layout": "single"}"#),
        ("POST", "/v1/projects", #"{"name": null, "layout": "single"}"#),
        ("POST", "/v1/projects", #"{"name": ["a"], "layout": "single"}"#),
        ("POST", "/v1/projects", #"{"name": "a", "layout": 2}"#),
        ("POST", "/v1/projects", #"{"name": "a", "layout": true}"#),
        ("POST", "/v1/projects", #"{"name": "a"}"#),
        ("POST", "/v1/projects", #"{"layout": "single"}"#),
        ("POST", "/v1/projects", "{}"),
        ("PATCH", "/v1/projects/\(ids.projectID)", "{}"),
        ("PATCH", "/v1/projects/\(ids.projectID)", #"{"name": {}}"#),
        ("POST", "/v1/projects/\(ids.projectID)/panes", "{}"),
        ("POST", "/v1/projects/\(ids.projectID)/panes", #"{"folder": 7}"#),
        ("POST", "/v1/projects/\(ids.projectID)/panes", #"{"folder": "/a", "viewMode": 1}"#),
        ("PATCH", "/v1/panes/\(ids.paneID)", "{}"),
        ("PATCH", "/v1/panes/\(ids.paneID)", #"{"viewMode": false}"#),
        ("POST", "/v1/panes/\(ids.paneID)/tabs", "{}"),
        ("POST", "/v1/panes/\(ids.paneID)/tabs", #"{"folder": ["/a"]}"#),
        ("POST", "/v1/favorites", #"{"name": "a"}"#),
        ("POST", "/v1/favorites", #"{"path": "/a"}"#),
        ("POST", "/v1/favorites", #"{"name": "a", "path": 1.5}"#),
        ("PUT", "/v1/active-project", "{}"),
        ("PUT", "/v1/active-project", #"{"projectID": 12}"#),
        ("PUT", "/v1/active-project", #"{"projectID": "not-a-uuid"}"#),
        ("PATCH", "/v1/owner", "{}"),
        ("PATCH", "/v1/owner", #"{"alias": 5}"#),
        ("PATCH", "/v1/owner", #"{"email": "no-at-sign"}"#),
        ("PATCH", "/v1/owner", #"{"email": "a@"}"#),
        ("PATCH", "/v1/owner", #"{"email": "@b"}"#),
    ]
    for (method, target, body) in typed { add("wrong type or missing field \(body)", method, target, body) }
    // Unknown enum values for new data.
    for layout in ["triple", "SINGLE", "", "single "] {
        add(
            "unknown layout \(layout.debugDescription)", "POST", "/v1/projects",
            #"{"name": "a", "layout": "\#(layout)"}"#)
    }
    add("unknown layout on change", "PATCH", "/v1/projects/\(ids.projectID)", #"{"layout": "hex"}"#)
    for mode in ["grid", "LIST", ""] {
        add(
            "unknown view mode \(mode.debugDescription)", "PATCH", "/v1/panes/\(ids.paneID)",
            #"{"viewMode": "\#(mode)"}"#)
    }
    // Names: control characters, 0 and 257 characters.
    let badNames = [
        #"a\u0001b"#, #"line\nbreak"#, #"tab\there"#, #"nul\u0000"#, #"esc\u001b[31m"#, #"del\u007f"#, "",
        String(repeating: "n", count: 257), String(repeating: "é", count: 257),
    ]
    for name in badNames {
        add("bad project name", "POST", "/v1/projects", #"{"name": "\#(name)", "layout": "single"}"#)
        add("bad favorite name", "POST", "/v1/favorites", #"{"name": "\#(name)", "path": "/p"}"#)
    }
    add("bad rename", "PATCH", "/v1/projects/\(ids.projectID)", #"{"name": ""}"#)
    add(
        "bad rename 257", "PATCH", "/v1/projects/\(ids.projectID)",
        #"{"name": "\#(String(repeating: "r", count: 257))"}"#)
    // Path tricks: relative, dot-dot, NUL, empty, over 4096 bytes.
    let badPaths = [
        "relative/dir", "../etc", "..", "./x", "~/x", "", #"/a\u0000b"#, "/" + String(repeating: "p", count: 4096),
        "/" + String(repeating: "é", count: 2048),
    ]
    for path in badPaths {
        add("bad favorite path", "POST", "/v1/favorites", #"{"name": "n", "path": "\#(path)"}"#)
        add("bad pane folder", "POST", "/v1/projects/\(ids.projectID)/panes", #"{"folder": "\#(path)"}"#)
        add("bad tab folder", "POST", "/v1/panes/\(ids.paneID)/tabs", #"{"folder": "\#(path)"}"#)
        add("bad pane update", "PATCH", "/v1/panes/\(ids.paneID)", #"{"folder": "\#(path)"}"#)
    }
    // Ids that name nothing (404) and malformed ids (400).
    add("unknown project", "GET", "/v1/projects/\(unknownID)", "", status: 404)
    add("unknown project rename", "PATCH", "/v1/projects/\(unknownID)", #"{"name": "x"}"#, status: 404)
    add("unknown project delete", "DELETE", "/v1/projects/\(unknownID)", "", status: 404)
    add("unknown project pane", "POST", "/v1/projects/\(unknownID)/panes", #"{"folder": "/a"}"#, status: 404)
    add("unknown pane", "PATCH", "/v1/panes/\(unknownID)", #"{"folder": "/a"}"#, status: 404)
    add("unknown pane delete", "DELETE", "/v1/panes/\(unknownID)", "", status: 404)
    add("unknown pane tab", "POST", "/v1/panes/\(unknownID)/tabs", #"{"folder": "/a"}"#, status: 404)
    add("unknown tab", "DELETE", "/v1/tabs/\(unknownID)", "", status: 404)
    add("unknown tab focus", "POST", "/v1/tabs/\(unknownID)/focus", "", status: 404)
    add("unknown favorite", "DELETE", "/v1/favorites/\(unknownID)", "", status: 404)
    add("unknown active project", "PUT", "/v1/active-project", #"{"projectID": "\#(unknownID)"}"#, status: 404)
    add("a pane id as project", "DELETE", "/v1/projects/\(ids.paneID)", "", status: 404)
    add("a project id as tab", "POST", "/v1/tabs/\(ids.projectID)/focus", "", status: 404)
    for bad in ["not-a-uuid", "123", ids.projectID + "0", "%00", "..", "%2e%2e", "%2F"] {
        add("malformed id \(bad)", "DELETE", "/v1/projects/\(bad)", "", status: nil)
    }
    add("empty id", "DELETE", "/v1/projects/", "", status: nil)
    // Bodies on operations that take none.
    add("body on delete", "DELETE", "/v1/favorites/\(ids.favoriteID)", #"{"force": true}"#)
    add("body on focus", "POST", "/v1/tabs/\(ids.tabID)/focus", #"{"x": 1}"#)
    // Malformed parameters on valid changes.
    let valid = #"{"name": "P", "path": "/p"}"#
    for (query, headers) in [
        ("?durable=maybe", []), ("?durable=2", []), ("", [("Workspaced-Durable", "perhaps")]),
        ("", [("If-Match", "abc")]), ("", [("If-Match", "\"1.x\"")]), ("", [("If-Match", "-1")]),
    ] as [(String, [(String, String)])] {
        cases.append(
            MalformedCase(
                name: "bad parameter \(query)\(headers)", method: "POST", target: "/v1/favorites" + query,
                headers: headers, body: Array(valid.utf8), status: 400))
    }
    cases.append(
        MalformedCase(
            name: "stale If-Match", method: "POST", target: "/v1/favorites", headers: [("If-Match", "\"0\"")],
            body: Array(valid.utf8), status: 412))
    // Unknown routes and wrong methods.
    add("unknown route", "GET", "/v2/status", "", status: 404)
    add("unknown route below", "GET", "/v1/projects/\(ids.projectID)/tabs", "", status: 404)
    add("wrong method status", "POST", "/v1/status", "", status: 405)
    add("wrong method workspace", "DELETE", "/v1/workspace", "", status: 405)
    add("wrong method owner", "POST", "/v1/owner", #"{"alias": "a"}"#, status: 405)
    add("wrong method favorites", "PUT", "/v1/favorites", valid, status: 405)
    // Huge bodies (over 1 MiB).
    let huge = #"{"name": ""# + String(repeating: "h", count: 1 << 20) + #"", "path": "/p"}"#
    add("huge body", "POST", "/v1/favorites", huge, status: 413)
    add(
        "huge project", "POST", "/v1/projects", "{\"name\": \"" + String(repeating: "x", count: 2 << 20) + "\"}",
        status: 413)
    add(
        "huge whitespace", "PATCH", "/v1/owner", String(repeating: " ", count: (1 << 20) + 1) + #"{"alias": "a"}"#,
        status: 413)
    return cases
}
