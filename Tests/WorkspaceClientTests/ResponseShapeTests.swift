import Foundation
import Testing
import WorkspaceAPI

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

    @Test("a TokenInfo and a SecretsStatus write every key, null included, and read back")
    func tokenAndSecretsNulls() throws {
        let info = TokenInfo(id: "0123456789ab", name: "ci", scope: "read", createdAt: Date(timeIntervalSince1970: 0))
        let infoData = try APICoding.encoder.encode(info)
        #expect(
            String(decoding: infoData, as: UTF8.self)
                == #"{"createdAt":"1970-01-01T00:00:00Z","id":"0123456789ab","lastUsedAt":null,"name":"ci","#
                + #""revokedAt":null,"scope":"read"}"#)
        #expect(try APICoding.decoder.decode(TokenInfo.self, from: infoData) == info)
        let secrets = SecretsStatus(state: "enabled", keySource: "credential", activeTokens: 2)
        let secretsData = try APICoding.encoder.encode(secrets)
        #expect(
            String(decoding: secretsData, as: UTF8.self)
                == #"{"activeTokens":2,"keyId":null,"keySource":"credential","reason":null,"reasonCode":null,"#
                + #""state":"enabled"}"#)
        #expect(try APICoding.decoder.decode(SecretsStatus.self, from: secretsData) == secrets)
    }
}
