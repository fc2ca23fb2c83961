import Foundation
import Testing

@testable import WorkspaceModel

/// The repair's check for a repeated id: a table of ids, and the sort it falls back to when ids chosen to collide
/// make the table's probes long.
@Suite("Repeated-id check")
struct IDTableTests {
    /// The `number`th of ids that all have one fingerprint (``IDTable/fingerprint(_:)``: the low half XOR the
    /// high half times the multiplier), distinct ids that the table cannot tell apart.
    static func colliding(_ number: UInt64) -> WorkspaceID {
        withFingerprint(0x5EED, high: number)
    }

    /// An id whose fingerprint is `fingerprint`, with `high` as its high half.
    static func withFingerprint(_ fingerprint: UInt64, high: UInt64 = 1) -> WorkspaceID {
        let low = fingerprint ^ (high &* IDTable.multiplier)
        var bytes = [UInt8](repeating: 0, count: 16)
        withUnsafeBytes(of: low) { half in
            for index in 0..<8 { bytes[index] = half[index] }
        }
        withUnsafeBytes(of: high) { half in
            for index in 0..<8 { bytes[index + 8] = half[index] }
        }
        let uuid = UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
        return WorkspaceID(uuid)
    }

    @Test func theTableFindsARepeatAndIsNotSureOfASharedFingerprint() {
        var table = IDTable(capacity: 3)
        let one = sequentialID(1)
        #expect(table.insert(one) == true)
        #expect(table.insert(sequentialID(2)) == true)
        #expect(table.insert(one) == false)
        #expect(Self.colliding(1) != Self.colliding(2))
        #expect(IDTable.fingerprint(Self.colliding(1)) == IDTable.fingerprint(Self.colliding(2)))
        var colliding = IDTable(capacity: 8)
        #expect(colliding.insert(Self.colliding(1)) == true)
        #expect(colliding.insert(Self.colliding(2)) == false, "a shared fingerprint was taken for a new id")
    }

    @Test func aTagSharedInOneProbeRunIsNotSure() {
        // Two fingerprints with the same tag placed in the same slot of a 16-slot table (the table for 8: the top
        // 4 bits of fingerprint × multiplier): the table cannot tell them apart and must say so. Adding a multiple of the
        // tag multiplier's inverse changes the fingerprint times the tag multiplier by that multiple: the top 32
        // bits stay.
        var inverse = IDTable.tagMultiplier
        for _ in 0..<5 { inverse = inverse &* (2 &- IDTable.tagMultiplier &* inverse) }
        let first: UInt64 = 0x1234_5678_0000_5EED
        #expect(IDTable.slotCount(capacity: 8) == 16)
        let place = { (fingerprint: UInt64) in IDTable.place(fingerprint, slotCount: 16) }
        let second = (1...4096).lazy.map { first &+ inverse &* UInt64($0) }.first {
            place($0) == place(first) && IDTable.tag($0) == IDTable.tag(first)
        }
        guard let second else {
            Issue.record("no fingerprint shares the tag and the place")
            return
        }
        #expect(first != second)
        var table = IDTable(capacity: 8)
        #expect(table.insert(Self.withFingerprint(first)) == true)
        #expect(table.insert(Self.withFingerprint(second)) == false, "a shared tag was taken for a new id")
        // Sequential ids differ only in their last bytes, and so their fingerprints only in their top bits: their
        // tags still differ.
        let sequential = (1...1_000).map { IDTable.tag(IDTable.fingerprint(sequentialID($0))) }
        #expect(Set(sequential).count == sequential.count)
    }

    @Test func aLongProbeGivesUp() {
        // Ids crowded into one place: fingerprints that differ only above the bits the place is taken from.
        var table = IDTable(capacity: 500)
        #expect((1...200).allSatisfy { table.insert(sequentialID($0)) }, "200 random-like ids were not all added")
        var crowded = IDTable(capacity: 500)
        let ids = Self.crowded(count: IDTable.probeLimit + 2)
        let added = ids.map { crowded.insert($0) }
        #expect(added.dropLast().allSatisfy { $0 })
        #expect(added.last == false, "a probe past the limit did not give up")
    }

    /// `count` distinct ids whose fingerprints all land in one slot of a table for 500 (750 slots).
    static func crowded(count: Int) -> [WorkspaceID] {
        var found: [WorkspaceID] = []
        var target: Int?
        var number = 1
        while found.count < count {
            let id = sequentialID(number)
            number += 1
            let place = IDTable.place(IDTable.fingerprint(id), slotCount: IDTable.slotCount(capacity: 500))
            if target == nil { target = place }
            if place == target { found.append(id) }
        }
        return found
    }

    @Test func aTableIsTwoThirdsFullAtItsCapacityAndPlacesAcrossAllItsSlots() {
        #expect(IDTable.slotCount(capacity: 230_000) == 345_000)
        #expect(IDTable.slotCount(capacity: 3) == 16)
        // The place is the high half of (fingerprint × multiplier) × slots: from 0 up to the last slot.
        let slots = 345_000
        #expect(IDTable.place(0, slotCount: slots) == 0)
        var inverse = IDTable.multiplier
        for _ in 0..<5 { inverse = inverse &* (2 &- IDTable.multiplier &* inverse) }
        #expect(IDTable.place(UInt64.max &* inverse, slotCount: slots) == slots - 1)
        let places = (1...20_000).map { IDTable.place(IDTable.fingerprint(sequentialID($0)), slotCount: slots) }
        #expect(places.allSatisfy { (0..<slots).contains($0) })
        #expect(Set(places.map { $0 / 34_500 }).count == 10, "sequential ids did not spread over the table's tenths")
        // Filled to its capacity, random ids are all new, and every one of them is then seen again.
        let ids = (0..<30_000).map { _ in WorkspaceID() }
        var table = IDTable(capacity: ids.count)
        #expect(ids.allSatisfy { table.insert($0) }, "a new id was taken for a repeat at two thirds full")
        #expect(ids.allSatisfy { !table.insert($0) }, "an id added before was taken for a new one")
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
