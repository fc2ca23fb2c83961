import Foundation
import Testing
import WorkspaceClient

@Suite("response shapes")
struct ResponseShapeTests {
    @Test("a ChangeResponse always has durableRevision and value, null when absent")
    func changeResponseKeys() throws {
        let data = try APICoding.encoder.encode(
            ChangeResponse<Empty>(
                revision: 3, etag: WorkspaceETag(lineage: "ab12", revision: 3), durableRevision: nil, value: nil))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["revision", "etag", "durableRevision", "value"])
        #expect(object["durableRevision"] is NSNull)
        #expect(object["value"] is NSNull)
        let decoded = try APICoding.decoder.decode(ChangeResponse<Empty>.self, from: data)
        #expect(
            decoded
                == ChangeResponse(
                    revision: 3, etag: WorkspaceETag(lineage: "ab12", revision: 3), durableRevision: nil, value: nil))
    }

    @Test("an ActiveProjectResponse writes projectID as null for none")
    func activeProjectNull() throws {
        let data = try APICoding.encoder.encode(ActiveProjectResponse(projectID: nil))
        #expect(String(decoding: data, as: UTF8.self) == #"{"projectID":null}"#)
    }
}
