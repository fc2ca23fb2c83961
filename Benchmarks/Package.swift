// swift-tools-version:6.1
import PackageDescription

// The benchmarks of workspaced on the real workspace (docs/benchmarks.md), apart from the shipped package so that
// `make test` never builds them or what only they need; `make bench` builds this package in release.
let package = Package(
    name: "workspaced-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // The package under test: the workspace model and the state store it loads with.
        .package(name: "workspaced", path: "..")
    ],
    targets: [
        // Generates workspaces of a given size with the real model, measures the release daemon's ready time and
        // memory against a plain `Codable` decode of the same bytes, and prints the table.
        .executableTarget(
            name: "WorkspaceBench",
            dependencies: [
                .product(name: "WorkspaceModel", package: "workspaced"),
                .product(name: "StateStore", package: "workspaced"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
