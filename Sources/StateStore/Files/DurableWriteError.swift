/// A durable replace that did not complete, with the stage it stopped at.
public struct DurableWriteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The stages of a durable replace, in order.
    public enum Stage: String, Sendable, Equatable {
        /// Creating the temporary file.
        case create
        /// Writing the bytes.
        case write
        /// fsync of the temporary file.
        case fsync
        /// Closing the temporary file.
        case close
        /// Renaming the temporary file over the target (or, for ``DurableWriter/create(_:at:)``, linking it to
        /// the target's name).
        case rename
        /// fsync of the directory after the rename.
        case directorySync
    }

    /// Where it stopped.
    public var stage: Stage
    /// The file being replaced.
    public var path: String
    /// The failed call.
    public var underlying: FileSystemError

    /// Whether the new content may already be in place: only a failure after the rename leaves "old or new".
    /// Before that, the old file is untouched.
    public var newContentMayBeVisible: Bool { stage == .directorySync }

    /// A failure at `stage` replacing `path`.
    public init(stage: Stage, path: String, underlying: FileSystemError) {
        self.stage = stage
        self.path = path
        self.underlying = underlying
    }

    /// A sentence with the stage, the file and the cause.
    public var description: String {
        let outcome =
            newContentMayBeVisible
            ? "the old or the new version is on disk" : "the previous version is intact"
        return "durable write of \(path) failed at \(stage.rawValue) (\(underlying)); \(outcome)"
    }
}
