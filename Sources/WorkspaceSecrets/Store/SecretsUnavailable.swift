/// Why the secret store is not open: token authentication is then disabled, the files are left exactly as they
/// are, and the workspace is served as usual.
public struct SecretsUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of problem: a stable code for `/v1/status` (`reasonCode`) and tests.
    public enum Reason: String, Sendable, Equatable {
        /// The daemon did not open a store (embedded use, tests).
        case notOpened = "not_opened"
        /// Another process holds the store's lock (an offline `workspaced secrets` tool).
        case locked
        /// There is a store but no key: no credential and no key file.
        case noKey = "no_key"
        /// The credential or key file is not a key.
        case badKey = "bad_key"
        /// `secrets.json.enc` is missing while `installation.json` says there was one.
        case missingFile = "missing_file"
        /// The store cannot be opened: a wrong key, tampered or truncated bytes, not an envelope.
        case cannotOpen = "cannot_open"
        /// The store opens but does not decode.
        case corrupt
        /// The store was written by a newer release that this one may not read.
        case newerVersion = "newer_version"
        /// A file could not be read (an I/O error).
        case readFailed = "read_failed"
        /// `installation.json` and the store name different installations.
        case installationMismatch = "installation_mismatch"
        /// The first start could not write the new store or key file.
        case writeFailed = "write_failed"
    }

    /// The kind of problem.
    public var reason: Reason
    /// What is wrong and what to do, naming the files.
    public var message: String

    /// A problem of `reason` explained by `message`.
    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

/// Something the opening of the store wants logged: a key file in use, a key file created, an interrupted rekey
/// finished, `installation.json` rewritten, a migration.
public struct SecretsNotice: Sendable, Equatable, CustomStringConvertible {
    /// What happened.
    public enum Kind: String, Sendable, Equatable {
        /// The key comes from the key file: a warning at every start, saying how to move it to a credential.
        case keyFileInUse = "key_file_in_use"
        /// A key file was created (the first start without a credential).
        case keyFileCreated = "key_file_created"
        /// A credential is used and the key file is still in the state directory.
        case keyFileLeftOver = "key_file_left_over"
        /// A rekey interrupted after the store was re-encrypted was finished (`secrets.key.new` moved into place).
        case rekeyFinished = "rekey_finished"
        /// A rekey interrupted before the store was re-encrypted was abandoned (`secrets.key.new` removed).
        case rekeyAbandoned = "rekey_abandoned"
        /// A new installation record and store were written (the first start).
        case installationCreated = "installation_created"
        /// `installation.json` was missing, unreadable or out of date and was written again from the store.
        case installationFileWritten = "installation_file_written"
        /// `installation.json` could not be written (it is written again at the next start).
        case installationFileFailed = "installation_file_failed"
        /// The store was loaded (with the load report's summary).
        case loaded
    }

    /// How loud.
    public enum Level: String, Sendable, Equatable {
        /// Routine.
        case info
        /// Worth noticing.
        case notice
        /// Needs the operator.
        case warning
    }

    /// What happened.
    public var kind: Kind
    /// How loud.
    public var level: Level
    /// A sentence for the journal.
    public var message: String

    /// A notice of `kind` at `level`.
    public init(_ kind: Kind, _ level: Level, _ message: String) {
        self.kind = kind
        self.level = level
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
