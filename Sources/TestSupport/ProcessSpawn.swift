import Glibc

/// The one `posix_spawn` of the tests: a child with an exact environment, stdin from `/dev/null`, stdout and stderr
/// on one descriptor, chosen descriptors placed at chosen numbers, default signal dispositions and an empty mask,
/// and no other descriptor of the test process.
///
/// Tests run in parallel in one process, and not every descriptor there is close-on-exec: SwiftNIO accepts
/// connections without `SOCK_CLOEXEC` on Linux. A child that inherits a server's end of a connection keeps it open
/// after the server closed it, so the client never sees EOF while that child lives (a daemon spawned by another
/// test can live for a minute). Every spawn therefore closes all descriptors above the ones it placed.
package enum ProcessSpawn {
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

    /// Spawns `path` with `arguments` and exactly `environment`; stdout and stderr go to `output`, and each
    /// `descriptors` source is placed at its target number (as systemd passes sockets at 3, 4, …).
    ///
    /// The test runner may block or ignore signals; the child starts with the defaults.
    /// - Returns: The child's pid.
    package static func spawn(
        _ path: String, _ arguments: [String], environment: [String: String], output: Int32,
        descriptors: [(source: Int32, target: Int32)] = []
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, output, 2)
        for (source, target) in descriptors {
            posix_spawn_file_actions_adddup2(&actions, source, target)
        }
        try closeAll(from: firstUnplaced(targets: descriptors.map(\.target)), in: &actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, path, &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw TestSupportError(description: "posix_spawn \(path): \(spawned)") }
        return child
    }
}
