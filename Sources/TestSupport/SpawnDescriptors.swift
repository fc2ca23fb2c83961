import Glibc

/// Keeps a test's children from inheriting the test process's descriptors.
///
/// Tests run in parallel in one process, and not every descriptor there is close-on-exec: SwiftNIO accepts
/// connections without `SOCK_CLOEXEC` on Linux. A child that inherits a server's end of a connection keeps it open
/// after the server closed it, so the client never sees EOF while that child lives (a daemon spawned by another
/// test can live for a minute). Every spawn therefore closes all descriptors above the ones it placed.
package enum SpawnDescriptors {
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc module does not
    /// export; looked up once.
    private static let closeFrom: CloseFrom? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        else { return nil }
        return unsafeBitCast(symbol, to: CloseFrom.self)
    }()

    /// Adds the action that closes, in the child, every descriptor from `lowest` up; call it after the `dup2`
    /// actions that place descriptors below `lowest`. Fails loudly on a libc without the call.
    package static func closeAll(
        from lowest: Int32, in actions: UnsafeMutablePointer<posix_spawn_file_actions_t>
    ) throws {
        guard let closeFrom else {
            throw TestSupportError(description: "posix_spawn_file_actions_addclosefrom_np is missing (glibc < 2.34)")
        }
        let result = closeFrom(actions, lowest)
        guard result == 0 else { throw TestSupportError(description: "addclosefrom_np(\(lowest)): \(result)") }
    }

    /// The first descriptor number above stdio and above every placed target.
    package static func firstUnplaced(targets: [Int32]) -> Int32 {
        max(3, (targets.max() ?? 2) + 1)
    }
}
