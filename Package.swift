// swift-tools-version:6.1
import PackageDescription

// Every dependency costs CI build time on a 2-core machine; each one is listed with the reason it earns its place.
let package = Package(
    name: "workspaced",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "StateStore", targets: ["StateStore"]),
        .library(name: "StateStoreTesting", targets: ["StateStoreTesting"]),
        .library(name: "Systemd", targets: ["Systemd"]),
    ],
    dependencies: [
        // The logging API every Swift server library speaks; the journald handler plugs into it.
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2")
    ],
    targets: [
        // Versioned, migrating, durably written state files. Foundation only: the few syscalls it needs
        // (fsync, flock, renameat2) are not all in swift-system, so it calls Glibc behind its own seam.
        .target(name: "StateStore"),
        .target(name: "StateStoreTesting", dependencies: ["StateStore"]),
        .systemLibrary(
            name: "CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        .target(
            name: "Systemd",
            dependencies: ["CSystemd", .product(name: "Logging", package: "swift-log")]
        ),
        // Runs the Systemd API in a child process (own pid, own environment, inherited fds, private journald)
        // for SystemdTests; not shipped.
        .executableTarget(
            name: "SystemdTestHelper",
            dependencies: ["Systemd", .product(name: "Logging", package: "swift-log")]
        ),
        // A four-version sample model shared by the tests and the benchmarks (not a product).
        .target(name: "StateStoreSample", dependencies: ["StateStore"]),
        // Benchmarks; the persistence mode drives the crash tester, hence StateStoreTesting (manual clock).
        .executableTarget(
            name: "StateStoreBenchmarks", dependencies: ["StateStore", "StateStoreSample", "StateStoreTesting"]),
        // A child process that owns a state through PersistentState and prints what is durable, so the crash
        // tests can SIGKILL/SIGTERM a real process and the benchmark can time SIGTERM → exit; not shipped.
        .executableTarget(name: "StateStoreCrashTester", dependencies: ["StateStore", "StateStoreSample"]),
        .testTarget(
            name: "StateStoreTests",
            dependencies: ["StateStore", "StateStoreTesting", "StateStoreSample"],
            resources: [.copy("Fixtures")]
        ),
        // Scripts/ holds the shell wrapper that starts a private journald; the tests run it, it is not Swift.
        .testTarget(name: "SystemdTests", dependencies: ["Systemd"], exclude: ["Scripts"]),
    ],
    swiftLanguageModes: [.v6]
)
