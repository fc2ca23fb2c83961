import Foundation

/// The fixture files of the workspace schema (Tests/WorkspaceModelTests/Fixtures), for the tests of every target
/// that needs a state file of a given version.
package enum WorkspaceFixtures {
    /// The bytes of `relativePath` under the fixtures directory (`versions/v1.json`…).
    package static func data(_ relativePath: String) throws -> Data {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try Data(contentsOf: root.appendingPathComponent("Tests/WorkspaceModelTests/Fixtures/" + relativePath))
    }

    /// A version-1 file with `projects` projects of four panes each (about 1 KB a project), made on a thread of
    /// its own: tens of thousands of projects take seconds of CPU in a debug build, and on a thread of the
    /// cooperative pool (two here) that stalled every other test of the run (an in-process server's answer, the
    /// test task's resumption) for 5 to 8 s (a probe of the pool, and the stacks gdb showed in that window).
    package static func largeVersion1(projects: Int) async -> Data {
        await offThePool { makeLargeVersion1(projects: projects) }
    }

    private static func makeLargeVersion1(projects: Int) -> Data {
        var text = #"{"projects":["#
        for index in 0..<projects {
            if index > 0 { text += "," }
            let id = "\(hex(index, 8))-0000-4000-8000-\(hex(index, 12))"
            text += #"{"id":"\#(id)","name":"Project \#(index)","layout":"quad","panes":["#
            for pane in 0..<4 {
                if pane > 0 { text += "," }
                let paneID = "\(hex(index, 8))-\(hex(pane, 4))-4000-8000-\(hex(index, 12))"
                text +=
                    #"{"id":"\#(paneID)","folder":"/home/ada/projects/p\#(index)/module-\#(pane)","viewMode":\#(pane % 3)}"#
            }
            text += "]}"
        }
        text += #"],"favorites":[],"activeProjectID":null,"owner":{"name":"Ada","age":"36"}}"#
        return Data(text.utf8)
    }

    /// `value` in lower-case hexadecimal, zero-padded to `width` digits (`String(format: "%0*x")` without its
    /// cost: it boxes every argument).
    private static func hex(_ value: Int, _ width: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
