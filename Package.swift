// swift-tools-version:6.1
import CompilerPluginSupport
import PackageDescription

// Every dependency costs CI build time on a 2-core machine; each one is listed with the reason it earns its place.

/// The trait each package dependency is built with. StateStore, StateStoreTesting and StateModel need none of them (only
/// swift-syntax, for the macro): a package that depends on this one with `traits: []` resolves and compiles only
/// those, and one with `traits: ["Systemd"]` adds the Systemd library and swift-log. The default trait, `Daemon`,
/// is everything: the daemon, its client, transport and secret store; `Metrics` makes StateStore report its figures
/// through swift-metrics.
let traitOfPackage: [String: Set<String>] = [
    "swift-log": ["Systemd"], "swift-configuration": ["Daemon"], "swift-argument-parser": ["Daemon"],
    "swift-system": ["Daemon"], "swift-nio": ["Daemon", "Replica"], "swift-nio-extras": ["Daemon"],
    "swift-crypto": ["Daemon", "Replica"], "async-http-client": ["Replica"], "swift-prometheus": ["Daemon"],
    "swift-metrics": ["Metrics"],
]

/// `package`'s product `name`, built only with one of the package's traits (``traitOfPackage``): a condition on every
/// use is what lets SwiftPM leave the package unresolved when the traits are off.
func traitProduct(_ name: String, _ package: String) -> Target.Dependency {
    guard let traits = traitOfPackage[package] else { fatalError("\(package) has no trait in traitOfPackage") }
    return .product(name: name, package: package, condition: .when(traits: traits))
}

let package = Package(
    name: "workspaced",
    platforms: [.macOS(.v15)],
    // A product is what a package depending on this one builds on; every other target (the daemon's modules, its
    // transport and secret store, the sample model, the test helpers) is this package's own and may change with
    // any release.
    products: [
        // A versioned state file and its run-time owner: what a service of one's own keeps its state with (the
        // getting-started guide, Tests/Newcomer).
        .library(name: "StateStore", targets: ["StateStore"]),
        // The fixture checker and test doubles a user's test target proves its migrations with.
        .library(name: "StateStoreTesting", targets: ["StateStoreTesting"]),
        // The @StateModel macro a user's model is declared with.
        .library(name: "StateModel", targets: ["StateModel"]),
        // Readiness, watchdog, journald logging, socket activation and credentials for a service of one's own under
        // systemd (the `Systemd` trait).
        .library(name: "Systemd", targets: ["Systemd"]),
        // Replication to S3-compatible storage (the `Replica` trait): the ReplicaTarget a user's StateStore
        // replicates its history to, its signer and encryption.
        .library(name: "StateStoreS3", targets: ["StateStoreS3"]),
        // The daemon, installed by `make install` and the packages.
        .executable(name: "workspaced", targets: ["workspaced"]),
        // The records a client program reads and changes; WorkspaceClient's API is made of them. It re-exports
        // StateCoding, the record runtime its API shows (`UnknownFields`), which is no product.
        .library(name: "WorkspaceModel", targets: ["WorkspaceModel"]),
        // The workspace file's schema, every version and migration: for a program that reads or writes a
        // workspace.json offline (the benchmark package, Benchmarks/, generates and loads them with it).
        .library(name: "WorkspaceStorage", targets: ["WorkspaceStorage"]),
        // The control API's contract (requests, responses, events, errors); WorkspaceClient's API is made of it.
        .library(name: "WorkspaceAPI", targets: ["WorkspaceAPI"]),
        // A Swift client of the control API, for a program that talks to workspaced. Its transport (UnixHTTP) is
        // no part of its API, so UnixHTTP is not a product.
        .library(name: "WorkspaceClient", targets: ["WorkspaceClient"]),
        // The operator's client, installed with the daemon.
        .executable(name: "workspacectl", targets: ["workspacectl"]),
    ],
    traits: [
        .trait(
            name: "Systemd",
            description:
                "The Systemd library (notify, watchdog, journald, socket activation, credentials) and swift-log."),
        .trait(
            name: "Replica",
            description:
                "StateStoreS3: replication of a state's history to S3-compatible storage, with async-http-client "
                + "and swift-crypto."),
        .trait(
            name: "Metrics",
            description:
                "StateStore reports its figures (saves, journal syncs, the revision, the load) through "
                + "apple/swift-metrics to the backend a program bootstraps or passes in (StateMetrics)."),
        .trait(
            name: "Daemon",
            description:
                "The daemon, workspacectl, the control API's contract, client and transport, the secret store.",
            enabledTraits: ["Systemd", "Replica", "Metrics"]),
        .default(enabledTraits: ["Daemon"]),
    ],
    dependencies: [
        // The logging API every Swift server library speaks; the journald handler plugs into it.
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        // Layered configuration (flags > WORKSPACED_* variables > JSON file > defaults) for the daemon. Without
        // its default `JSON` trait, whose snapshot parses with Foundation's JSONSerialization: the daemon reads its
        // file with its own snapshot (ConfigurationFileSnapshot) and links FoundationEssentials only.
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0", traits: []),
        // Subcommands, flags, help and shell completions for workspaced and workspacectl.
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // FilePath for swift-configuration's file provider (already one of its dependencies).
        .package(url: "https://github.com/apple/swift-system.git", from: "1.8.1"),
        // Event loops, Unix-socket bootstraps and the HTTP/1.1 codec for the control API's transport (UnixHTTP).
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        // ServerQuiescingHelper for UnixHTTP's graceful shutdown: it records every accepted connection on the
        // listener's event loop and tells each to quiesce, in place of a connection registry and polling of our own.
        // Only its NIOExtras module is built, over the swift-nio modules already here: about 9 s of CPU per clean
        // build (19 files, compiled for the target and for the host). Resolution clones 7 more packages that its
        // other products name (swift-nio-http2, swift-nio-ssl, swift-http-types...); none of them is compiled.
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        // AES-GCM and SHA-256 for the secret store and API tokens: vetted BoringSSL-backed primitives instead of
        // hand-written cryptography (about a minute of CI build time). Not StateStore's: its import marker's SHA-256
        // is its own, so that a program using StateStore compiles no BoringSSL.
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        // The HTTP client of the S3 replica target (StateStoreS3, the `Replica` trait): connection pooling, TLS
        // (swift-nio-ssl), timeouts and redirects over the swift-nio already here, rather than an HTTP/1.1 client of
        // our own. The one dependency issue 43 adds; it costs about three minutes of a clean CI build (swift-nio-ssl's
        // BoringSSL, swift-nio-http2), measured in docs/persistence.md.
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // The daemon's counters, gauges and histograms and Prometheus's text exposition format (`GET /v1/metrics`,
        // issue 44), rather than a writer of the format of our own; small (it brings swift-metrics, the metrics API
        // of Swift servers, and swift-atomics, which swift-nio already has), about 20 s of a clean CI build.
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // The metrics API of Swift servers, for StateStore's own figures (the `Metrics` trait), so that a library
        // user's bootstrapped backend gets them; swift-prometheus brings it already, and alone it is one small
        // module with no dependency (a few seconds of a clean build).
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        // The @StateModel macro's implementation (a compiler plug-in): parsing the declaration and building its
        // Codable code. Built once per clean build, for the host only (about two minutes of CI build time); it is
        // not linked into any binary.
        .package(url: "https://github.com/swiftlang/swift-syntax.git", from: "603.0.1"),
        // Expansion and diagnostic tests for the macro (inline snapshots of the generated code); tests only.
        .package(url: "https://github.com/pointfreeco/swift-macro-testing.git", from: "0.7.0"),
        // `swift package generate-documentation` for the StateStore and Systemd DocC catalogs (Scripts/build-docs.sh,
        // `make docs`). A command plug-in: it and its tools (snippet-extract, SymbolKit) are built only when the
        // plug-in runs, never by `swift build` or `swift build --build-tests`, so it costs the test build nothing.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Versioned, migrating, durably written state files, and the flush on a stop signal. Foundation only, and
        // no package: a program using it resolves and compiles nothing else (its import marker's SHA-256 is its
        // own); the few syscalls it needs (fsync, flock) are not all in swift-system, so it calls Glibc behind its
        // own seam.
        .target(
            name: "StateStore",
            dependencies: [
                "StateCoding", "StateJSON", "CSignalLatch", "CChecksum", traitProduct("CoreMetrics", "swift-metrics"),
            ]),
        // The Codable runtime of a versioned record, apart from the engine: unknown fields kept, defaults and
        // salvage repairs recorded, extensible enums, JSONValue, and the direct reader and writer that read and
        // write a record straight from and to a file's bytes. What @StateModel's generated code calls, so that
        // a program that only reads and writes records (a client of an API built on them) links no file engine
        // and no swift-crypto. StateStore re-exports it.
        .target(name: "StateCoding", dependencies: ["StateJSON"]),
        // StateStore's JSON toolkit, apart from the engine: the scanner that names a defect or a duplicate key by
        // line and column, the compact encoder (JSONEncoder's bytes without its tree), ISO 8601 timestamps. Each
        // has a measured reason (docs/state-file.md, Performance); `package` access, not an API of its own.
        .target(name: "StateJSON"),
        .testTarget(name: "StateJSONTests", dependencies: ["StateJSON", "StateStore", "TestSupport"]),
        .target(name: "StateStoreTesting", dependencies: ["StateStore"]),
        // @StateModel: a struct's coding keys, init(from:), encode(to:) and memberwise initializer generated, with
        // defaults recorded and unknown fields kept in one pass. A product apart from StateStore, so a program
        // that writes its Codable by hand does not build swift-syntax.
        .target(name: "StateModel", dependencies: ["StateCoding", "StateModelMacros"]),
        .macro(
            name: "StateModelMacros",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]
        ),
        .testTarget(
            name: "StateModelMacrosTests",
            dependencies: [
                "StateModelMacros", "TestSupport", .product(name: "MacroTesting", package: "swift-macro-testing"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
            ]
        ),
        .systemLibrary(
            name: "CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        .target(
            name: "Systemd",
            dependencies: ["CSystemd", traitProduct("Logging", "swift-log")]
        ),
        // Runs the Systemd API in a child process (own pid, own environment, inherited fds, private journald)
        // for SystemdTests; not shipped.
        .executableTarget(
            name: "SystemdTestHelper",
            dependencies: ["Systemd", traitProduct("Logging", "swift-log")]
        ),
        // The library's sample model (Notebook, four versions and their steps) that StateStore's tests, the crash
        // tester and the benchmarks load. Not a product: no user builds on it. The benchmark package (Benchmarks/, a
        // package of its own) compiles these same sources through a symbolic link, Benchmarks/Sources/StateStoreSample.
        .target(name: "StateStoreSample", dependencies: ["StateStore", "StateModel"]),
        // A child process that owns a state through PersistentState and prints what is durable, so the crash
        // tests can SIGKILL/SIGTERM a real process; not shipped.
        .executableTarget(name: "StateStoreCrashTester", dependencies: ["StateStore", "StateStoreSample"]),
        // The daemon's configuration, start-up and shutdown order, offline tools; the executable is thin.
        .target(
            name: "WorkspaceDaemon",
            dependencies: [
                "StateStore", "StateJSON", "Systemd", "WorkspaceModel", "WorkspaceStorage", "WorkspaceAPI", "UnixHTTP",
                "WorkspaceSecrets", "StateStoreS3", "CIOPriority",
                traitProduct("Logging", "swift-log"),
                traitProduct("NIOHTTP1", "swift-nio"),
                traitProduct("Configuration", "swift-configuration"),
                traitProduct("SystemPackage", "swift-system"),
                traitProduct("Prometheus", "swift-prometheus"),
                traitProduct("CoreMetrics", "swift-metrics"),
            ]
        ),
        // The control API's contract, shared by the daemon's routes, the client and workspacectl: routes and their
        // methods, request and response types, the error body and codes, the change options, exit statuses,
        // releases. Records come from WorkspaceModel; no engine (StateStore, the daemon), no macro and no transport
        // (UnixHTTP, SwiftNIO): the daemon and the client map its types to their transport's at their edge
        // (ContractBoundaryTests checks the imports and this list).
        .target(name: "WorkspaceAPI", dependencies: ["WorkspaceModel"]),
        // A Swift client of the control API on the Unix socket, for workspacectl and any Swift program that talks
        // to workspaced.
        .target(
            name: "WorkspaceClient",
            dependencies: [
                "WorkspaceAPI", "WorkspaceModel", "UnixHTTP", traitProduct("NIOHTTP1", "swift-nio"),
            ]
        ),
        // A load-time constructor that makes a SIGTERM before `main` a clean exit and ignores an early SIGHUP, for
        // `workspaced run` only (Sources/CEarlySignals/early_signals.c).
        .target(name: "CEarlySignals"),
        // A load-time constructor that makes the binary's .bss resident and writable before any thread starts, for
        // `workspaced run` only: 0.36 ms off the start's two threads' faults (Sources/CStartPages/start_pages.c).
        .target(name: "CStartPages"),
        // Holds a signal while libdispatch registers its source, which it does some time after
        // `resume()` (Sources/CSignalLatch/signal_latch.c); used by StateStore's SignalSources.
        .target(name: "CSignalLatch"),
        // CRC-32C by the processor's instruction, for the journal's records (Sources/CChecksum/crc32c.c), and
        // SHA-256's compression by the x86-64 SHA extensions, for the history's identities (sha256.c): a C target
        // because Swift has no portable way to the SSE 4.2, AArch64 CRC and SHA instructions.
        .target(name: "CChecksum"),
        // ioprio_set(2) for the daemon's scrub thread, which reads at idle I/O priority
        // (Sources/CIOPriority/io_priority.c): Swift cannot call the variadic syscall(2).
        .target(name: "CIOPriority"),
        // The daemon's command line: the `workspaced` root command, `run` and the offline tools, over
        // WorkspaceDaemon. A library, so that the shipped executable and the test executable run the same commands
        // with their own seams (WorkspacedSeams: the file system, the memory limit, the schema...).
        .target(
            name: "WorkspacedCommands",
            dependencies: [
                "WorkspaceDaemon", "WorkspaceAPI", "WorkspaceModel", "WorkspaceStorage", "StateStore", "Systemd",
                "UnixHTTP", "CEarlySignals", "CStartPages",
                traitProduct("ArgumentParser", "swift-argument-parser"),
                traitProduct("Logging", "swift-log"),
            ]
        ),
        // The daemon binary: WorkspacedCommands with the shipped seams, and nothing else.
        .executableTarget(name: "workspaced", dependencies: ["WorkspacedCommands"]),
        // `workspaced` with test hooks (Sources/workspaced-testing: a signal window, a crashing loader, a fake
        // cgroup, a faster start-timeout extension, a schema version 5, a SIGUSR2 hang), installed through
        // WorkspacedSeams when a WSD_TEST_* variable asks. The process tests and the system tests' watchdog and
        // downgrade scenarios run it, so that the shipped binary holds no test code; not a product, not installed,
        // not packaged.
        .executableTarget(
            name: "workspaced-testing",
            dependencies: [
                "WorkspacedCommands", "WorkspaceDaemon", "WorkspaceModel", "WorkspaceStorage", "StateStore", "Systemd",
                "CSignalLatch",
            ]
        ),
        // The daemon in-process: its configuration, routes, events, history, secrets and lifecycle over a
        // `WorkspaceDaemon` in the test process, with no child process. `make unit-tests` runs the in-process
        // targets together, then the process targets, then the reliability target.
        .testTarget(
            name: "WorkspaceDaemonTests",
            dependencies: [
                "WorkspaceDaemon", "StateStore", "StateStoreTesting", "Systemd", "WorkspaceModel", "WorkspaceStorage",
                "TestSupport", "UnixHTTP", "WorkspaceSecrets", "WorkspaceAPI", "WorkspaceClient", "CIOPriority",
                traitProduct("NIOHTTP1", "swift-nio"),
            ]
        ),
        // The `workspaced` and `workspaced-testing` binaries as systemd runs them (TestSupport's TestDaemon): notify
        // messages, signals, exit statuses, offline tools, metrics, replication, the syscall order under strace. A
        // target apart from the in-process suites: a daemon's start takes seconds of CPU, and sharing the
        // cooperative pool's two threads with in-process servers stretched both past their waits; `swift test
        // --filter WorkspaceDaemonProcessTests` runs them alone. They find the binaries next to the test bundle,
        // which `swift build --build-tests` builds with every product.
        .testTarget(
            name: "WorkspaceDaemonProcessTests",
            dependencies: [
                "WorkspaceDaemon", "StateStore", "StateStoreTesting", "Systemd", "WorkspaceModel", "WorkspaceStorage",
                "TestSupport", "WorkspaceAPI",
            ]
        ),
        // The reliability suites (docs/reliability.md): SIGKILL and SIGTERM torture of the daemon binary, the fault
        // matrix and the full disk under the fault shim (Tests/FaultShim), power loss at every crash point, the
        // corrupt-input corpus. They saturate two cores (twenty daemons, sixteen clients, CPU-bound loads), so they
        // run on their own after every other target (`make unit-tests`, `make soak`) and append their rows to
        // WSD_RELIABILITY_SUMMARY.
        .testTarget(
            name: "ReliabilityTests",
            dependencies: [
                "WorkspaceDaemon", "StateStore", "StateStoreTesting", "WorkspaceModel", "WorkspaceStorage",
                "TestSupport", "WorkspaceAPI", "WorkspaceClient",
            ]
        ),
        // HTTP/1.1 server and client over Unix domain sockets; transport only, it knows nothing of workspaces. The
        // daemon's and WorkspaceClient's, not a product: no public API of a product exposes it.
        .target(
            name: "UnixHTTP",
            dependencies: [
                traitProduct("NIOCore", "swift-nio"),
                traitProduct("NIOPosix", "swift-nio"),
                traitProduct("NIOHTTP1", "swift-nio"),
                traitProduct("NIOExtras", "swift-nio-extras"),
                traitProduct("Logging", "swift-log"),
            ]
        ),
        .testTarget(name: "UnixHTTPTests", dependencies: ["UnixHTTP", "TestSupport", "StateStoreTesting"]),
        // The library of the getting-started guide's settings service (StateStore.docc): the sources of the package
        // Tests/Newcomer, which `make newcomer` builds on its own, compiled here too so that StateStore's tests run
        // the guides' code on that very model (a version 3 of it, its saves, its journal entries) and check every
        // Swift block of the guides against compiled sources. One example, no copy; not a product.
        .target(
            name: "Settings", dependencies: ["StateStore", "StateModel"], path: "Tests/Newcomer/Sources/Settings"),
        .testTarget(
            name: "StateStoreTests",
            dependencies: [
                "StateStore", "StateStoreTesting", "StateStoreSample", "StateModel", "Settings", "TestSupport",
                // The settings service's journal entries and stop notification (the JournalFields article).
                "Systemd", traitProduct("Logging", "swift-log"),
                // SHA256Tests checks StateStore's own SHA-256 against it.
                traitProduct("Crypto", "swift-crypto"),
                // StateMetricsTests reads StateStore's figures back through swift-metrics's test backend.
                traitProduct("MetricsTestKit", "swift-metrics"),
                // S3ReplicationTests replicate and restore through the S3 target against moto's server.
                "StateStoreS3",
            ],
            resources: [.copy("Fixtures")]
        ),
        // The workspace's current records (projects, panes, tabs, favorites, owner) and their validating
        // mutations: what the API serves and the daemon changes. The record runtime and the macro only, no engine,
        // so that the API contract and its clients need no StateStore.
        .target(name: "WorkspaceModel", dependencies: ["StateCoding", "StateModel"]),
        // How the workspace is stored: every schema version, the migrations both ways, the schema StateStore
        // loads with.
        .target(name: "WorkspaceStorage", dependencies: ["WorkspaceModel", "StateStore", "StateModel"]),
        .testTarget(
            name: "WorkspaceModelTests",
            dependencies: [
                "WorkspaceModel", "WorkspaceStorage", "StateStoreTesting", "TestSupport", "WorkspaceFuzzing",
                // The operation names and record ids of each change (WorkspaceChange+Operation) live in the contract.
                "WorkspaceAPI",
            ],
            resources: [.copy("Fixtures")]
        ),
        // S3-compatible object storage for StateStore's replication (issue 43): the AWS Signature Version 4 signer
        // every such store checks, the S3 ReplicaTarget over async-http-client, and the AES-GCM encryption of a
        // replica's objects (swift-crypto, also for SHA-256 and HMAC). Behind the `Replica` trait, which `Daemon`
        // enables, so a program using StateStore alone resolves and builds none of it.
        .target(
            name: "StateStoreS3",
            dependencies: [
                "StateStore", traitProduct("Crypto", "swift-crypto"),
                traitProduct("AsyncHTTPClient", "async-http-client"), traitProduct("NIOCore", "swift-nio"),
                traitProduct("NIOHTTP1", "swift-nio"), traitProduct("NIOConcurrencyHelpers", "swift-nio"),
            ]),
        // The AWS test suite's vectors (Fixtures, botocore's copy) and S3's documented example.
        .testTarget(name: "StateStoreS3Tests", dependencies: ["StateStoreS3"], exclude: ["Fixtures"]),
        // The secret store: the installation record and the API tokens in an AES-256-GCM sealed, versioned state
        // file (StateStore's schema, migrations and durable replace), and its offline check, rekey and reset. It
        // takes the key's bytes from its caller, so it needs nothing of systemd; swift-crypto for AES-GCM, SHA-256
        // and the random key. The daemon's own store, not a product: a program that talks to the daemon goes through
        // the control API (WorkspaceClient), never through the daemon's secrets file.
        .target(
            name: "WorkspaceSecrets",
            dependencies: ["StateStore", "StateJSON", "StateModel", traitProduct("Crypto", "swift-crypto")]
        ),
        // The secret store's fixtures of every shipped version, every way it cannot be opened, tokens, keys, the
        // deletion-resistance rules and rekey.
        .testTarget(
            name: "WorkspaceSecretsTests",
            dependencies: ["WorkspaceSecrets", "StateStore", "StateStoreTesting", "TestSupport"],
            resources: [.copy("Fixtures")]
        ),
        // Scripts/ holds the shell wrapper that starts a private journald; the tests run it, it is not Swift. The
        // helper, the wrapper and journalctl run through TestSupport's runCommand, the one runner of the tests.
        .testTarget(
            name: "SystemdTests", dependencies: ["Systemd", "TestSupport", "StateStoreTesting"], exclude: ["Scripts"]),
        // The test kit every test target shares (one wait with one deadline, one command runner, curl, one JSON
        // helper, one daemon launcher, the notify listener, process spawning); linked only into tests. The one
        // temporary directory is StateStoreTesting's, which library users get too.
        .target(name: "TestSupport"),
        // The operator's command-line client: one subcommand per API operation, human or JSON output. A library, so
        // that tests parse and run the commands in-process without importing an executable's main module (a test
        // target that did made SwiftPM emit that module twice, and the second emit failed now and then).
        .target(
            name: "WorkspacectlCommands",
            dependencies: [
                "WorkspaceAPI", "WorkspaceClient", "WorkspaceModel",
                traitProduct("ArgumentParser", "swift-argument-parser"),
            ]
        ),
        // The thin `workspacectl` executable over WorkspacectlCommands.
        .executableTarget(name: "workspacectl", dependencies: ["WorkspacectlCommands"]),
        // The client against a stub server, workspacectl's exit codes and output, and its argument parsing
        // (`Workspacectl.parseAsRoot`, hence WorkspacectlCommands and ArgumentParser).
        .testTarget(
            name: "WorkspaceClientTests",
            dependencies: [
                "WorkspaceAPI", "WorkspaceClient", "TestSupport", "UnixHTTP", "WorkspaceModel", "WorkspacectlCommands",
                traitProduct("NIOHTTP1", "swift-nio"),
                traitProduct("Logging", "swift-log"),
                traitProduct("ArgumentParser", "swift-argument-parser"),
            ]
        ),
        // End-to-end tests of the control API against the real workspaced binary: workspacectl, curl, durability,
        // If-Match, a malformed-request corpus, concurrent clients.
        .testTarget(
            name: "ControlAPITests",
            dependencies: [
                "WorkspaceAPI", "WorkspaceClient", "TestSupport", "UnixHTTP", "WorkspaceModel",
                traitProduct("NIOHTTP1", "swift-nio"),
            ]
        ),
        // The fuzz targets (workspace file, control API, secrets file) and the promise each input must keep; built
        // and tested in every build (their stored inputs are regression fixtures), run under libFuzzer by `make fuzz`.
        .target(
            name: "WorkspaceFuzzing",
            dependencies: [
                "StateStore", "StateStoreTesting", "WorkspaceModel", "WorkspaceStorage", "WorkspaceSecrets",
                "WorkspaceDaemon", "WorkspaceAPI", "WorkspaceClient", "UnixHTTP",
                traitProduct("Logging", "swift-log"),
                traitProduct("NIOHTTP1", "swift-nio"),
            ]
        ),
        // Every seed and every crash libFuzzer found, through the same checks, in the ordinary build.
        .testTarget(
            name: "WorkspaceFuzzingTests",
            dependencies: ["WorkspaceFuzzing", "TestSupport"],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// `make fuzz` sets WSD_FUZZ=1: the libFuzzer driver exists, and the package's own modules on its path are compiled
// with coverage instrumentation and AddressSanitizer (`-sanitize=fuzzer,address`). Only these modules: the
// dependencies keep the objects the debug build already has, so the fuzz build recompiles this package's code and
// nothing else (the next ordinary build compiles it back). The driver links only with libFuzzer's runtime, which
// is why it is absent from ordinary builds.
if Context.environment["WSD_FUZZ"] == "1" {
    let instrumented: Set<String> = [
        "StateJSON", "StateCoding", "StateStore", "StateStoreTesting", "StateModel", "WorkspaceModel",
        "WorkspaceStorage", "WorkspaceSecrets", "WorkspaceAPI", "WorkspaceClient", "UnixHTTP", "Systemd",
        "WorkspaceDaemon", "WorkspaceFuzzing",
    ]
    let sanitize = SwiftSetting.unsafeFlags(["-sanitize=fuzzer,address"])
    for target in package.targets where instrumented.contains(target.name) {
        target.swiftSettings = (target.swiftSettings ?? []) + [sanitize]
    }
    package.targets += [
        // Declares LLVMFuzzerRunDriver for the driver.
        .target(name: "CLibFuzzer"),
        .executableTarget(
            name: "WorkspaceFuzz",
            dependencies: ["WorkspaceFuzzing", "CLibFuzzer"],
            swiftSettings: [sanitize],
            linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address"])]
        ),
    ]
}

// WSD_MACRO_PLUGIN=PATH (the system tests set it to the debug build's `StateModelMacros-tool`): the @StateModel
// macro comes from that already-built plug-in instead of being built again. A release build otherwise compiles
// swift-syntax with whole-module optimization, one module after another (SwiftSyntax alone takes more than six
// minutes of one core here), for a plug-in whose optimization changes nothing in the binaries: it only writes
// source code. The macro target is dropped, so swift-syntax is not compiled, and every module is compiled with
// `-load-plugin-executable PATH#StateModelMacros`, which is how SwiftPM hands the compiler a macro it built.
if let plugin = Context.environment["WSD_MACRO_PLUGIN"], !plugin.isEmpty {
    package.targets.removeAll { $0.name == "StateModelMacros" || $0.name == "StateModelMacrosTests" }
    let load = SwiftSetting.unsafeFlags(["-load-plugin-executable", "\(plugin)#StateModelMacros"])
    for target in package.targets where target.type != .system {
        target.dependencies.removeAll {
            switch $0 {
            case .byNameItem(name: "StateModelMacros", _), .targetItem(name: "StateModelMacros", _): true
            default: false
            }
        }
        let cTargets = ["CSignalLatch", "CEarlySignals", "CStartPages", "CLibFuzzer", "CChecksum", "CIOPriority"]
        if !cTargets.contains(target.name) {
            target.swiftSettings = (target.swiftSettings ?? []) + [load]
        }
    }
}
