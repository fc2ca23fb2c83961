/// JSON the stub daemon answers with, shaped as docs/api.md says.
enum Sample {
    static let projectID = "3F2504E0-4F89-11D3-9A0C-0305E82C3301"
    static let paneID = "9b2c1a47-5c1e-4a36-8f0f-6b7e2a1d0c11"
    static let tabID = "0d4b2f4e-1111-4c3a-9a33-2b6a7f0e9c22"
    static let favoriteID = "6a1f0e3c-2222-4b9d-8e11-0f3c2b1a4d33"

    static let tab = #"{"id": "\#(tabID)", "folder": "/srv/a"}"#
    static let pane =
        #"{"id": "\#(paneID)", "folder": "/srv", "viewMode": "icons", "focusedTabIndex": 0, "tabs": [\#(tab)]}"#
    static let project = #"{"id": "\#(projectID)", "name": "Alpha", "layout": "split", "panes": [\#(pane)]}"#
    static let favorite =
        #"{"id": "\#(favoriteID)", "name": "Home", "path": "/home/x", "createdAt": "2026-11-22T03:00:00Z"}"#
    static let owner = #"{"alias": "ana", "email": "ana@example.org", "shoeSize": 38}"#
    static let status = """
        {"daemonVersion": "1.4.0", "schemaVersion": 4, "statePath": "/var/lib/workspaced/workspace.json",
         "revision": 42, "lineage": "ab12", "durableRevision": 40, "dirty": true, "lastSaveAt": "2026-11-22T03:00:00Z",
         "lastSaveMilliseconds": 12.5, "lastError": "disk full", "lastErrorAt": "2026-11-22T03:01:00Z",
         "consecutiveFailures": 2, "savesPerformed": 17, "changesCoalesced": 5, "uptimeSeconds": 3723.4,
         "history": {"directory": "/var/lib/workspaced/workspace.json.history", "oldestRevision": 12,
          "oldestTime": "2026-11-21T03:00:00Z", "files": 9, "bytes": 123456, "snapshots": 2, "segments": 6,
          "damaged": [{"path": "/var/lib/workspaced/workspace.json.history/segment.13", "reason": "bad checksum"}],
          "keepSeconds": 604800, "maximumBytes": 67108864}}
        """
    static let workspace = """
        {"revision": 9, "etag": "ab12.9", "workspace": {"projects": [\(project)], "favorites": [\(favorite)],
         "activeProjectID": "\(projectID)", "owner": \(owner), "future": true}}
        """

    /// A page of `GET /v1/history`: a rename of the sample project by uid 1000, then a workspace restore with no
    /// time or peer recorded.
    static let history = """
        {"entries": [
          {"revision": 8, "time": "2026-11-22T03:00:00Z", "operation": "project.update", "ids": ["\(projectID)"],
           "peer": "uid 1000 pid 4242"},
          {"revision": 9, "time": null, "operation": "workspace.restore", "ids": [], "peer": null}],
         "oldestRevision": 3, "currentRevision": 9, "hasMore": false}
        """

    /// `{"revision": 8, "etag": "ab12.8", "durableRevision": null, "value": <value>}`.
    static func change(_ value: String = "null", durable: String = "null") -> String {
        #"{"revision": 8, "etag": "ab12.8", "durableRevision": \#(durable), "value": \#(value)}"#
    }

    /// The API's error body.
    static func error(_ code: String, _ message: String, field: String? = nil) -> String {
        let field = field.map { "\"\($0)\"" } ?? "null"
        return #"{"error": {"code": "\#(code)", "message": "\#(message)", "field": \#(field)}}"#
    }
}
