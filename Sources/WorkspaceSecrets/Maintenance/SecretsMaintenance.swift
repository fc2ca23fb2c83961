import FoundationEssentials
import StateStore

/// The offline tools behind `workspaced secrets check | rekey | reset`. Each takes the store's lock, so it
/// refuses to run while the daemon has the store open.
public enum SecretsMaintenance {
    /// What ``check(at:key:options:)`` found.
    public struct CheckReport: Sendable, Equatable {
        /// What the check concluded.
        public enum Verdict: Sendable, Equatable {
            /// The store opens and decodes with the key found.
            case readable
            /// It does not (the last line says why).
            case unreadable
            /// There is nothing at all (no store and no `installation.json`): a daemon that never started.
            case nothingThere
            /// The daemon (or another tool) holds the store's lock.
            case locked
        }

        /// What the check concluded.
        public var verdict: Verdict
        /// Lines for people: the files, the key, the installation, the tokens, or what is wrong.
        public var lines: [String]

        /// Whether the store is readable.
        public var readable: Bool { verdict == .readable }
    }

    /// Reads the store the way the daemon would, without writing anything.
    public static func check(
        at location: SecretsLocation, key provided: ProvidedKey, options: SecretStoreOptions
    )
        -> CheckReport
    {
        var lines = ["store: \(location.secretsPath)"]
        let sealing = ReplaceableSealing()
        let file = options.stateFile(location, sealing: sealing, locking: .none)
        defer { file.unlock() }
        func unreadable(_ problem: String, _ verdict: CheckReport.Verdict = .unreadable) -> CheckReport {
            CheckReport(verdict: verdict, lines: lines + ["problem: \(problem)"])
        }
        do {
            try file.acquireLock()
        } catch {
            return unreadable("\(error): stop the daemon first", .locked)
        }
        let installation = InstallationFile.read(location.installationPath, fileSystem: options.fileSystem)
        let stored: Data?
        do {
            stored = try options.fileSystem.readFile(at: location.secretsPath)
        } catch {
            return unreadable("cannot read it: \(error)")
        }
        guard let stored else {
            if installation.exists {
                return unreadable(SecretStore.missingStoreMessage(location, installation))
            }
            return unreadable("there is no secret store yet (the daemon's first start creates one)", .nothingThere)
        }
        let sealedKeyID = SecretsSealing.keyID(of: stored)
        lines.append("sealed under key: \(sealedKeyID ?? "? (not an envelope)")")
        let resolution: SecretsKeyResolver.Resolution
        do {
            resolution = try SecretsKeyResolver(location: location, fileSystem: options.fileSystem, writes: false)
                .resolve(provided, sealedKeyID: sealedKeyID, storeExists: true)
        } catch {
            return unreadable(error.message)
        }
        lines.append("key: \(resolution.key.id) from the \(resolution.source)")
        lines += resolution.notices.filter { $0.kind != .keyFileInUse }.map { "note: \($0.message)" }
        sealing.use(resolution.key)
        let loaded: LoadedState<Secrets>
        do {
            loaded = try file.load()
        } catch {
            return unreadable(SecretStore.describe(error).1)
        }
        let model = loaded.model
        let record = model.installation
        let active = model.tokens.filter { !$0.isRevoked }.count
        lines += [
            "installation: \(record.id.uuidString.lowercased())",
            "first started: \(record.firstStartedAt.formatted(.iso8601)) by release \(record.firstRelease)",
            "version: \(loaded.report.storedVersion.map(String.init) ?? "?") (this release writes "
                + "\(SecretsSchema.currentVersion)); \(loaded.report.summary)",
            "tokens: \(active) active, \(model.tokens.count - active) revoked",
            "installation.json: " + describe(installation, record: record, keyID: resolution.key.id),
            "problems: none; the store is readable",
        ]
        return CheckReport(verdict: .readable, lines: lines)
    }

    private static func describe(
        _ contents: InstallationFile.Contents, record: InstallationRecord, keyID: String
    )
        -> String
    {
        switch contents {
        case .missing:
            return "missing (the next start writes it again)"
        case .unreadable(let reason):
            return "unreadable (\(reason)); the next start writes it again"
        case .present(let file):
            if file.id != record.id { return "names another installation, \(file.idText) (the daemon refuses)" }
            if file.keyId != keyID { return "names key \(file.keyId) (the next start updates it)" }
            return "matches"
        }
    }
}
