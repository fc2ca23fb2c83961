import Foundation
import StateStore
import Testing

@testable import WorkspaceModel

@Suite("Ids: any letter case in, written back as read")
struct WorkspaceIDTests {
    @Test func idsThatDifferOnlyInCaseAreEqualAndHashAlike() throws {
        let lower = try id("a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d")
        let upper = try id("A1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C5D")
        #expect(lower == upper)
        #expect(Set([lower, upper]).count == 1)
        #expect(lower.text != upper.text)
        #expect(try id("a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5e") != lower)
    }

    @Test(arguments: ["", "not-a-uuid", "a1b2c3d4e5f64a7b8c9d0e1f2a3b4c5d", " a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d"])
    func anythingButAUUIDIsRejected(text: String) {
        #expect(WorkspaceID(text) == nil)
    }

    @Test(arguments: [
        "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5g", "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5",
        "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d0",
        "a1b2c3d4+e5f6-4a7b-8c9d-0e1f2a3b4c5d", "a1b2c3d-4e5f6-4a7b-8c9d-0e1f2a3b4c5d",
        "+1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d",
        "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5\u{00E9}",
    ])
    func aNearUUIDIsRejected(text: String) {
        #expect(WorkspaceID(text) == nil)
    }

    @Test func theParserReadsWhatFoundationReadsAndSpellsWhatFoundationSpells() {
        for _ in 0..<1_000 {
            let uuid = UUID()
            let upper = uuid.uuidString
            #expect(WorkspaceID(upper)?.uuid == uuid)
            #expect(WorkspaceID(upper)?.text == upper, "an upper-case id keeps its spelling")
            #expect(WorkspaceID(upper.lowercased())?.uuid == uuid)
            #expect(WorkspaceID(upper.lowercased())?.text == upper.lowercased())
            #expect(WorkspaceID(uuid).text == upper.lowercased())
        }
    }

    @Test func aNonUUIDIdMakesTheFileCorrupt() throws {
        let bytes = Data(
            #"{"projects":[{"id":"p1","name":"x","layout":"single","panes":[]}],"favorites":[],"owner":{"name":"a","age":"1"}}"#
                .utf8)
        #expect {
            try workspaceCodec().decode(bytes)
        } throws: { error in
            guard case .corrupt(let reason) = error as? StateDecodingError else { return false }
            return reason.contains(#""p1" is not a UUID"#) && reason.contains("projects[0].id")
        }
    }

    @Test func anIdIsSixteenBytesAndSoIsAnOptionalOne() {
        // Every record holds one: 16 bytes, where a UUID beside a reference took 24.
        #expect(MemoryLayout<WorkspaceID>.size == MemoryLayout<UUID>.size)
        #expect(MemoryLayout<WorkspaceID?>.size == MemoryLayout<UUID>.size)
        // A tab (id, folder, unknown fields) 40 bytes, so that an array of two takes 128 bytes of heap, not 144.
        #expect(MemoryLayout<Tab>.stride == 40)
        #expect(MemoryLayout<Pane>.stride == 64)
    }

    @Test(arguments: [
        // RFC 9562's variant (10xx), whose ids are packed, at both ends of byte 8's range.
        "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d", "ffffffff-ffff-ffff-bfff-ffffffffffff",
        "00000000-0000-0000-8000-000000000000",
        // Every other variant, kept in an object: NCS (0xxx), Microsoft (110x), reserved (111x), nil and max.
        "a1b2c3d4-e5f6-1a7b-7c9d-0e1f2a3b4c5d", "a1b2c3d4-e5f6-1a7b-c09d-0e1f2a3b4c5d",
        "a1b2c3d4-e5f6-1a7b-ef9d-0e1f2a3b4c5d", "00000000-0000-0000-0000-000000000000",
        "ffffffff-ffff-ffff-ffff-ffffffffffff",
    ])
    func everyVariantKeepsItsBytesAndItsSpelling(text: String) throws {
        let uuid = try #require(UUID(uuidString: text))
        let lower = try #require(WorkspaceID(text))
        let upper = try #require(WorkspaceID(text.uppercased()))
        #expect(lower.uuid == uuid)
        #expect(upper.uuid == uuid)
        #expect(WorkspaceID(uuid).uuid == uuid)
        #expect(lower.text == text)
        #expect(upper.text == text.uppercased())
        #expect(WorkspaceID(uuid).text == text)
        #expect(lower == upper)
        #expect(lower == WorkspaceID(uuid))
        #expect(lower.hashValue == upper.hashValue)
        // One byte apart in byte 8 (its variant bits included) or in the last byte: a different id.
        var other = uuid.uuid
        other.8 ^= 0x40
        #expect(WorkspaceID(UUID(uuid: other)) != lower)
        other = uuid.uuid
        other.15 ^= 0x01
        #expect(WorkspaceID(UUID(uuid: other)) != lower)
    }

    @Test func newIdsAreLowerCaseAndDistinct() {
        let first = WorkspaceID()
        #expect(first.text == first.text.lowercased())
        #expect(first != WorkspaceID())
    }

    @Test func upperCaseIdsLoadMatchCaseInsensitivelyAndAreWrittenBackAsRead() throws {
        let decoded = try decodeFixture("edge/upper-case-uuids.json")
        #expect(decoded.repairs.isEmpty, "a lower-case activeProjectID names the upper-case project")
        let workspace = decoded.model
        #expect(workspace.activeProjectID == workspace.projects[0].id)
        #expect(workspace.project(try id("a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d"))?.name == "Shouting")
        #expect(workspace.favorite(try id("c1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d"))?.name == "Mixed")
        let text = String(decoding: try workspaceCodec().encode(workspace), as: UTF8.self)
        #expect(text.contains(#""id":"A1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C5D""#))
        #expect(text.contains(#""id":"B1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C5D""#))
        #expect(text.contains(#""id":"C1b2C3d4-E5f6-4A7b-8C9d-0E1f2A3b4C5d""#))
        #expect(text.contains(#""activeProjectID":"a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d""#))
    }
}
