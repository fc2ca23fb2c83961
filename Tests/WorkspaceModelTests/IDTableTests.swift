import Foundation
import Testing

@testable import WorkspaceModel

/// The repair's check for a repeated id: a table of ids, and the sort it falls back to when ids chosen to collide
/// make the table's probes long.
@Suite("Repeated-id check")
struct IDTableTests {
    /// An id whose two 64-bit halves are equal, so that every such id hashes alike (their XOR is 0).
    static func colliding(_ number: UInt64) -> WorkspaceID {
        var bytes = [UInt8](repeating: 0, count: 16)
        withUnsafeBytes(of: number) { half in
            for index in 0..<8 {
                bytes[index] = half[index]
                bytes[index + 8] = half[index]
            }
        }
        let uuid = UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
        return WorkspaceID(uuid)
    }

    @Test func theTableFindsARepeatAndGivesUpOnCollisions() {
        var table = IDTable(capacity: 3)
        let one = sequentialID(1)
        #expect(table.insert(one) == true)
        #expect(table.insert(sequentialID(2)) == true)
        #expect(table.insert(one) == false)
        var colliding = IDTable(capacity: 500)
        let results = (1...500).map { colliding.insert(Self.colliding($0)) }
        #expect(results.prefix(IDTable.probeLimit + 1).allSatisfy { $0 == true })
        #expect(results.contains(nil), "500 ids of one hash never made a probe run past the limit")
    }

    @Test(arguments: [false, true])
    func collidingIdsAreStillCheckedAndRepaired(repeated: Bool) {
        var projects = (1...300).map { Project(id: Self.colliding($0), name: "p\($0)", layout: .single) }
        if repeated { projects.append(Project(id: Self.colliding(7), name: "again", layout: .single)) }
        var workspace = Workspace(projects: projects)
        let messages = WorkspaceRepair.repair(&workspace)
        #expect(messages.count == (repeated ? 1 : 0), "\(messages)")
        #expect(Set(workspace.projects.map(\.id)).count == workspace.projects.count)
    }
}
