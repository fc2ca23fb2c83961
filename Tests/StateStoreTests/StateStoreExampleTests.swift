import Foundation
import StateStore
import StateStoreTesting
import TestSupport
import Testing

@testable import StateStoreExample

#if canImport(Glibc)
import Glibc
#endif

/// The example service the DocC guides quote (Sources/StateStoreExample): the guides quote it character for
/// character, its fixtures migrate, and it runs: migrates, counts its start, says READY, flushes on SIGTERM.
@Suite("StateStoreExample: the service the guides quote", .timeLimit(.minutes(1)))
struct StateStoreExampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let example = root.appendingPathComponent("Sources/StateStoreExample")
    static let fixtures = example.appendingPathComponent("Fixtures")

    /// The newcomer's package (Tests/Newcomer): the settings service the getting-started guide builds.
    static let newcomer = root.appendingPathComponent("Tests/Newcomer")

    /// Every DocC article of the libraries: each Swift code block is quoted from compiled sources, the example,
    /// the newcomer's package (built and tested as a package of its own by `make newcomer`), or the snippet tests.
    static let quotingArticles = [
        "Sources/StateStore/StateStore.docc/GettingStarted.md",
        "Sources/StateStore/StateStore.docc/WritingAMigrationStep.md",
        "Sources/StateStore/StateStore.docc/TestingMigrations.md",
        "Sources/StateStore/StateStore.docc/DurableAcknowledgements.md",
        "Sources/StateModel/StateModel.docc/StateModel.md",
        "Sources/StateStoreTesting/StateStoreTesting.docc/StateStoreTesting.md",
        "Sources/Systemd/Systemd.docc/JournalFields.md",
        "Sources/Systemd/Systemd.docc/ServiceManagerIntegration.md",
    ]

    @Test func everyArticleWithSwiftCodeIsChecked() throws {
        let catalogs = ["StateStore", "StateModel", "StateStoreTesting", "Systemd"]
        for catalog in catalogs {
            let directory = Self.root.appendingPathComponent("Sources/\(catalog)/\(catalog).docc")
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasSuffix(".md")
            {
                let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
                let article = "Sources/\(catalog)/\(catalog).docc/\(name)"
                #expect(
                    Self.swiftBlocks(in: text).isEmpty || Self.quotingArticles.contains(article),
                    "\(article) has Swift code that no test checks: add it to quotingArticles")
            }
        }
    }

    @Test(arguments: quotingArticles)
    func everySwiftBlockOfTheArticleIsTextOfCompiledSources(article: String) throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent(article), encoding: .utf8)
        let blocks = Self.swiftBlocks(in: text)
        #expect(!blocks.isEmpty, "\(article) quotes no Swift code")
        let files = try Self.quotableSources()
        let sources = files.map(Self.unindented)
        #expect(sources.count >= 10)
        for block in blocks {
            #expect(
                sources.contains { $0.contains(Self.unindented(block)) },
                "\(article) quotes code that is in none of the checked sources (indentation aside):\n\(block)")
            if Self.showsAWholeFile(block) {
                let whole = files.contains { $0.trimmingCharacters(in: .newlines) == block }
                let message =
                    "\(article) shows a whole file (it starts with an import or the tools version) that is not, "
                    + "character for character, a whole checked file:\n\(block)"
                #expect(whole, Comment(rawValue: message))
            }
        }
    }

    /// Whether a block shows a file from its first line: a manifest's tools version or an import. Such a block must
    /// be the whole file (issue 41: a manifest quoted without its first two lines did not build).
    static func showsAWholeFile(_ block: String) -> Bool {
        block.hasPrefix("// swift-tools-version") || block.hasPrefix("import ")
    }

    /// The guides show the newcomer's three files whole, so that a reader can copy them as they are.
    @Test func theGettingStartedGuideShowsTheNewcomersFilesWhole() throws {
        let guide = try String(
            contentsOf: Self.root.appendingPathComponent("Sources/StateStore/StateStore.docc/GettingStarted.md"),
            encoding: .utf8)
        let testing = try String(
            contentsOf: Self.root.appendingPathComponent("Sources/StateStore/StateStore.docc/TestingMigrations.md"),
            encoding: .utf8)
        let blocks = Set(Self.swiftBlocks(in: guide) + Self.swiftBlocks(in: testing))
        for file in [
            "Package.swift", "Sources/Settings/Settings.swift", "Sources/settings-service/main.swift",
            "Tests/SettingsTests/SettingsTests.swift",
        ] {
            let text = try String(contentsOf: Self.newcomer.appendingPathComponent(file), encoding: .utf8)
            #expect(blocks.contains(text.trimmingCharacters(in: .newlines)), "no guide shows \(file) whole")
        }
    }

    /// `text` with every line's leading spaces removed: a block quoted from inside a type or a function is
    /// indented less in the article.
    static func unindented(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.drop { $0 == " " } }.joined(separator: "\n")
    }

    /// The text of every Swift file of the example and of the newcomer's package (its manifest included), of this
    /// file and of the snippet tests.
    static func quotableSources() throws -> [String] {
        let here = URL(fileURLWithPath: #filePath)
        let tests = here.deletingLastPathComponent()
        var files = [
            here, tests.appendingPathComponent("MissingDefaultTrapTests.swift"),
            tests.appendingPathComponent("WritingAMigrationStepTests.swift"),
            tests.deletingLastPathComponent().appendingPathComponent(
                "SystemdTests/ServiceManagerIntegrationSnippetTests.swift"),
        ]
        for directory in [Self.example, Self.newcomer] {
            let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                if url.lastPathComponent == ".build" { enumerator?.skipDescendants() }
                if url.pathExtension == "swift" { files.append(url) }
            }
        }
        return try files.map { try String(contentsOf: $0, encoding: .utf8) }
    }

    /// The text of every ```` ```swift ```` fenced block, its lines joined with newlines.
    static func swiftBlocks(in markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
            } else if let lines = current, line == "```" {
                blocks.append(lines.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test func everyShippedVersionOfTheExampleLoadsRoundTripsAndMigratesOnce() throws {
        let verifier = FixtureVerifier(schema: try StartsSchema.make())
        let results = try verifier.verifyDirectory(Self.fixtures)  // v1.json, v2.json: one per version
        #expect(results.map(\.storedVersion) == [1, 2])
        #expect(results[0].decoded.stepsApplied == [1...2])
        #expect(results[0].decoded.fieldsDefaulted == ["lastStartedAt": 1])
        #expect(results[0].decoded.model == Starts(starts: 3, lastStartedAt: nil))
    }

    @Test func aChangeIsSavedOnceTheDebounceHasPassed() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("starts.json")
        let scheduler = ManualPersistenceScheduler()
        let file = StateFile(path: path, schema: try StartsSchema.make())
        let state = PersistentState(file: file, loaded: try file.load(), scheduler: scheduler)
        let applied = try state.apply { $0.starts += 1 }
        scheduler.advance(by: .milliseconds(499))
        #expect(state.status.durableRevision == 0 && !state.status.isSaving)
        scheduler.advance(by: .milliseconds(1))  // the debounce is over: the save starts in the background
        try await state.waitUntilDurable(applied.revision)
        let reader = StateFile(
            path: path, schema: try StartsSchema.make(), configuration: StateFileConfiguration(locking: .none))
        #expect(try reader.load().model.starts == 1)
        try state.close()
    }

    @Test func theExampleMigratesCountsItsStartsAndFlushesOnStop() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let original = try Data(contentsOf: Self.fixtures.appendingPathComponent("v1.json"))
        try directory.write("starts.json", original)
        let notify = try NotifyListener(path: directory.file("notify.sock"))
        for (signal, start) in [(SIGTERM, 4), (SIGINT, 5)] {
            let process = try RunningProcess(
                ProductPaths.executable("starts-example"), [],
                environment: ["STATE_DIRECTORY": directory.path, "NOTIFY_SOCKET": notify.path],
                outputPath: directory.file("output-\(start).log"))
            var datagrams = await Self.datagrams(from: notify) { $0.contains("READY=1") }
            #expect(
                datagrams.contains { $0.contains("READY=1") && $0.contains("STATUS=start number \(start)") },
                "\(datagrams); output: \(process.output)")
            process.send(signal)
            #expect(await process.waitForExit(timeout: .seconds(30)) == 0, "output: \(process.output)")
            datagrams += notify.drain().map(\.text)
            #expect(datagrams.contains { $0.contains("STOPPING=1") })
            // Revisions continue across the clean stop: the first run's change is revision 1, the second's 2.
            #expect(process.output.contains("flushed on stop: revision \(start - 3) is on disk"), "\(process.output)")
            let stored = try StateCodec(schema: try StartsSchema.make()).decode(directory.read("starts.json"))
            #expect(stored.storedVersion == 2 && stored.model.starts == start && stored.model.lastStartedAt != nil)
            #expect(try directory.read("starts.json.v1.bak") == original)
        }
        let outputs = try (4...5).map {
            try String(contentsOfFile: directory.file("output-\($0).log"), encoding: .utf8)
        }
        #expect(outputs[0].contains("migrated version 1 to 2"), "\(outputs[0])")
        #expect(outputs[1].contains("loaded version 2"), "\(outputs[1])")
    }

    @Test func theExampleEventsHaveDistinctMessageIDs() {
        #expect(Set(ExampleEvent.allCases.map(\.messageID)).count == ExampleEvent.allCases.count)
    }

    /// The datagrams received until one satisfies `done` (or 30 s pass), polled without holding a thread.
    static func datagrams(from notify: NotifyListener, until done: (String) -> Bool) async -> [String] {
        var received: [String] = []
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            received += notify.drain().map(\.text)
            if received.contains(where: done) { break }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return received
    }
}
