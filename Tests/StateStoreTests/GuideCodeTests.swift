import Foundation
import Testing

/// The DocC guides quote compiled code: every Swift block of an article is text of the getting-started package
/// (Tests/Newcomer, whose library `Settings` this package compiles too) or of a test file that compiles and runs
/// the article's code; a block that shows a file from its first line is that whole file.
@Suite("The guides' Swift blocks are compiled code")
struct GuideCodeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The newcomer's package (Tests/Newcomer): the settings service the getting-started guide builds.
    static let newcomer = root.appendingPathComponent("Tests/Newcomer")

    /// The settings service's fixtures: a file of each version it reads.
    static let newcomerFixtures = newcomer.appendingPathComponent("Tests/SettingsTests/Fixtures")

    /// Every DocC article of the libraries: each Swift code block is quoted from compiled sources, the newcomer's
    /// package (built and tested as a package of its own by `make newcomer`) or the snippet tests.
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
        #expect(sources.count >= 9)
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

    /// The text of every Swift file of the newcomer's package (its manifest included) and of the snippet tests.
    static func quotableSources() throws -> [String] {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        var files = [
            "MissingDefaultTrapTests.swift", "WritingAMigrationStepTests.swift", "SettingsServiceTests.swift",
            "SettingsJournalSnippetTests.swift",
        ].map { tests.appendingPathComponent($0) }
        files.append(
            tests.deletingLastPathComponent().appendingPathComponent(
                "SystemdTests/ServiceManagerIntegrationSnippetTests.swift"))
        let enumerator = FileManager.default.enumerator(at: Self.newcomer, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            if url.lastPathComponent == ".build" { enumerator?.skipDescendants() }
            if url.pathExtension == "swift" { files.append(url) }
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
}
