import Foundation
import StateStore
import StateStoreSample
import StateStoreTesting
import TestSupport
import Testing

/// The crash-loop guard's record, overwritten in place, at every crash point on ``PowerLossFileSystem``: two
/// loads that never finish, then the power cut before each mutating call of a third. Every disk the machine may
/// come back with loads the state file unchanged, and its record counts the two, the three, or (torn) none; once
/// the third load has read the state file, every disk counts three: the count was durable before the read.
@Suite struct CrashGuardCrashPointTests {
    static let path = "/sim/notebook.json"

    func file(_ fileSystem: PowerLossFileSystem) throws -> StateFile<Notebook> {
        StateFile(
            path: Self.path, schema: try NotebookSchema.make(),
            configuration: StateFileConfiguration(crashedLoadLimit: 5), fileSystem: fileSystem, now: fixedNow)
    }

    /// A load that begins and never finishes.
    func dyingLoad(_ fileSystem: PowerLossFileSystem) throws -> Notebook? {
        let file = try file(fileSystem)
        defer { file.unlock() }
        return try file.load().model
    }

    @Test func everyCrashPointOfACountedLoadLeavesARecordThatCountsOrReadsAsNone() throws {
        let original = try Fixtures.data("notebook/v4.json")
        let before = PowerLossFileSystem(files: [Self.path: original])
        let expected = try dyingLoad(before)
        _ = try dyingLoad(before)
        #expect(try file(before).crashGuardRecord().unfinishedLoads == 2)
        let start = before.disksAfterCrash()[0].files
        let record = try #require(start["/sim/.notebook.json.loading"])
        #expect(record.count == 512, "the record's file, written whole once")

        let clean = PowerLossFileSystem(files: start)
        _ = try dyingLoad(clean)
        let calls = clean.mutatingCalls
        // The lock's owner written, the record's write and fdatasync in place (no new file, no rename, no
        // directory fsync), then, after the state file was read, the lock's close.
        #expect(calls == 4)
        let afterTheRecordsSync = 3
        var disksChecked = 0
        for crashPoint in 0...calls {
            let fileSystem = PowerLossFileSystem(files: start)
            fileSystem.crash(beforeCall: crashPoint)
            _ = try? dyingLoad(fileSystem)
            for disk in fileSystem.disksAfterCrash() {
                let context = "crash before call \(crashPoint), \(disk)"
                #expect(disk.files[Self.path] == original, "\(context)")
                let restarted = PowerLossFileSystem(files: disk.files)
                let counted = try file(restarted).crashGuardRecord().unfinishedLoads
                if crashPoint >= afterTheRecordsSync {
                    #expect(counted == 3, "\(context)")
                } else {
                    #expect([0, 2, 3].contains(counted), "\(context): \(counted)")
                }
                #expect(try dyingLoad(restarted) == expected, "\(context)")
                disksChecked += 1
            }
        }
        #expect(disksChecked == 6 * (calls + 1))
    }
}
