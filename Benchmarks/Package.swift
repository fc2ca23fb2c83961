// swift-tools-version:6.1
import PackageDescription

// The benchmarks of workspaced on the real workspace (docs/benchmarks.md), apart from the shipped package so that
// `make test` never builds them or what only they need; `make bench` builds this package in release.
let package = Package(
    name: "workspaced-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // The package under test: the workspace model and the state store it loads with.
        .package(name: "workspaced", path: ".."),
        // The SQLite peer only (`WorkspaceBench peer`): the same workspace kept in a database, a table per record
        // kind, measured against the JSON file in the same run. Only this package depends on it, and `make test`
        // never builds this package, so the shipped package and its tests never fetch or compile it.
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        // The results file both executables write their sections into (docs/benchmarks/results.json).
        .target(name: "BenchResults"),
        // Generates workspaces of a given size with the real model, measures the release daemon's ready time and
        // memory against a plain `Codable` decode of the same bytes, and prints the table.
        .executableTarget(
            name: "WorkspaceBench",
            dependencies: [
                "BenchResults",
                .product(name: "WorkspaceModel", package: "workspaced"),
                // The change journal's record type (WorkspaceChange's StateChange conformance).
                .product(name: "WorkspaceStorage", package: "workspaced"),
                .product(name: "StateStore", package: "workspaced"),
                .product(name: "StateStoreTesting", package: "workspaced"),
                .product(name: "WorkspaceClient", package: "workspaced"),
                // The S3 replica target (`WorkspaceBench replica`).
                .product(name: "StateStoreS3", package: "workspaced"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // The library's sample model (Notebook): Sources/StateStoreSample here is a symbolic link to workspaced's
        // target of that name, which is no product (no user builds on it), and a package reaches another's targets
        // only through its products. One model, its sources compiled by both packages.
        .target(
            name: "StateStoreSample",
            dependencies: [
                .product(name: "StateStore", package: "workspaced"),
                .product(name: "StateModel", package: "workspaced"),
            ]
        ),
        // The load benchmark on the library's sample model and the single operations
        // Scripts/count-load-instructions.sh counts with callgrind.
        .executableTarget(
            name: "StateStoreBenchmarks",
            dependencies: ["BenchResults", .product(name: "StateStore", package: "workspaced"), "StateStoreSample"]),
    ],
    swiftLanguageModes: [.v6]
)
