// swift-tools-version:6.1
import PackageDescription

// A first service on StateStore, written from the DocC guides only (GettingStarted, TestingMigrations): a settings
// file with two versions. `make newcomer` builds and tests it as a package of its own and fails when it resolves or
// compiles more than its three products need (Scripts/check-newcomer.sh).
let package = Package(
    name: "settings",
    platforms: [.macOS(.v15)],
    dependencies: [
        // From Git instead: .package(url: "<workspaced's repository>", from: "<its release>", traits: [])
        .package(name: "workspaced", path: "../..", traits: [])
    ],
    targets: [
        .target(
            name: "Settings",
            dependencies: [
                .product(name: "StateStore", package: "workspaced"),
                .product(name: "StateModel", package: "workspaced"),
            ]
        ),
        .executableTarget(name: "settings-service", dependencies: ["Settings"]),
        .testTarget(
            name: "SettingsTests",
            dependencies: ["Settings", .product(name: "StateStoreTesting", package: "workspaced")],
            resources: [.copy("Fixtures")]
        ),
    ]
)
