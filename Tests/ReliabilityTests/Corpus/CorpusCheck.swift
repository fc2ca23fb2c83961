import Foundation
import StateStore
import TestSupport
import Testing

@testable import WorkspaceModel
@testable import WorkspaceStorage

/// Loads bytes as `workspace.json` in a fresh directory, as the daemon does at start, and checks the promise of
/// issue 15 (corrupt input): no crash, a load within a second, and then either
/// - the state was loaded or salvaged, and it saves, loads again as it is and saves the very same bytes a second
///   time (a salvage's original kept byte for byte), or
/// - the file was quarantined once: its bytes kept in exactly one `workspace.json.corrupt-*`, the state file gone,
///   the initial state in use, and the next start finds nothing to quarantine again, or
/// - it was refused as a newer release's file, untouched.
struct CorpusCheck: Sendable {
    /// The clock that names quarantined copies and backups.
    static let fixedNow = Date(timeIntervalSince1970: 1_795_000_000)
    /// A hang, not slowness: the corpus files are at most a few kilobytes, and a load takes about a millisecond.
    static let loadLimit = Duration.seconds(1)

    let schema: StateSchema<Workspace>

    init() throws {
        schema = try WorkspaceSchema.make()
    }

    /// Loads `bytes` under `policy` and checks what follows; records an issue naming `name` on any broken promise.
    @discardableResult
    func check(
        _ name: String, _ bytes: Data, policy: CorruptFilePolicy = .salvage,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> CorpusOutcome? {
        let directory = FileManager.default.temporaryDirectory.path + "/workspace-corpus-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/workspace.json"
        try bytes.write(to: URL(fileURLWithPath: path))
        let open = {
            StateFile(
                path: path, schema: schema, configuration: StateFileConfiguration(corruptFilePolicy: policy),
                now: { Self.fixedNow })
        }

        let file = open()
        let clock = ContinuousClock()
        let started = clock.now
        let loaded: LoadedState<Workspace>
        do {
            loaded = try file.load()
        } catch {
            guard case .newerVersion = error else {
                Issue.record("\(name) under \(policy): the load threw \(error)", sourceLocation: sourceLocation)
                return nil
            }
            #expect(
                clock.now - started < Self.loadLimit, "\(name): refusing took \(clock.now - started)",
                sourceLocation: sourceLocation)
            #expect(
                (try? Data(contentsOf: URL(fileURLWithPath: path))) == bytes,
                "\(name): a refused newer file was changed", sourceLocation: sourceLocation)
            return .refusedNewer
        }
        let took = clock.now - started
        #expect(took < Self.loadLimit, "\(name): the load took \(took)", sourceLocation: sourceLocation)

        let copies = try corruptCopies(in: directory)
        switch loaded.report.source {
        case .quarantined:
            #expect(
                copies.count == 1 && copies.first.map { read(directory + "/" + $0) } == bytes,
                "\(name): the original is not kept once, byte for byte: \(copies)", sourceLocation: sourceLocation)
            #expect(
                !FileManager.default.fileExists(atPath: path), "\(name): the quarantined file is still in place",
                sourceLocation: sourceLocation)
            #expect(
                loaded.model == schema.initialModel(), "\(name): a quarantine did not start from the initial state",
                sourceLocation: sourceLocation)
            file.unlock()
            let again = try open().load()
            let copiesAfter = try corruptCopies(in: directory)
            #expect(
                again.report.source == .noFile && copiesAfter == copies,
                "\(name): the next start quarantined again or moved the copy", sourceLocation: sourceLocation)
            return .quarantined
        case .salvaged:
            #expect(
                copies.count == 1 && copies.first.map { read(directory + "/" + $0) } == bytes,
                "\(name): the salvaged file's original is not kept once, byte for byte: \(copies)",
                sourceLocation: sourceLocation)
            try savesTheSameBytesTwice(name, file, loaded.model, open: open, sourceLocation: sourceLocation)
            return .salvaged
        case .file:
            #expect(copies.isEmpty, "\(name): a file that loaded was copied aside", sourceLocation: sourceLocation)
            try savesTheSameBytesTwice(name, file, loaded.model, open: open, sourceLocation: sourceLocation)
            return .loaded
        case .noFile, .imported:
            Issue.record(
                "\(name): a file in place loaded as \(loaded.report.source)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// Saves `model`, loads the result as it is (no salvage, no quarantine) and equal to `model` (what was served
    /// is what was saved), saves that and compares the bytes.
    private func savesTheSameBytesTwice(
        _ name: String, _ file: StateFile<Workspace>, _ model: Workspace, open: () -> StateFile<Workspace>,
        sourceLocation: SourceLocation
    ) throws {
        try file.save(model)
        let first = read(file.path)
        // A clean stop: the next start continues the lineage, so the second save may write the same bytes.
        try file.recordCleanStop(revision: file.revision)
        file.unlock()
        let reopened = open()
        defer { reopened.unlock() }
        let reloaded = try reopened.load()
        #expect(
            reloaded.report.source == .file && reloaded.report.salvage == nil,
            "\(name): the saved state did not load as it is (\(reloaded.report.source))",
            sourceLocation: sourceLocation)
        #expect(
            reloaded.model == model, "\(name): the saved state loads as another state", sourceLocation: sourceLocation)
        try reopened.save(reloaded.model)
        #expect(read(file.path) == first, "\(name): a second save wrote other bytes", sourceLocation: sourceLocation)
    }

    private func corruptCopies(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasPrefix("workspace.json.corrupt-") }.sorted()
    }

    private func read(_ path: String) -> Data? {
        try? Data(contentsOf: URL(fileURLWithPath: path))
    }
}
