import Foundation
import StateStore
import WorkspaceModel
import WorkspaceStorage

/// The work a save cannot avoid, the divisor of the save and SIGTERM figures: `StateFile.encode` of a workspace
/// (as the daemon encodes it) and `DurableWriter.write` of the bytes (write, fsync, rename, directory fsync) to a
/// file of its own beside the state.
struct EncodeAndWrite {
    let file: StateFile<Workspace>
    let model: Workspace
    let path: String

    /// The baseline for `model`, written to `path`.
    init(model: Workspace, path: String) throws {
        // Never loaded: encoding needs no load, and the writer bypasses the state file's lock.
        file = StateFile(path: path, schema: try WorkspaceSchema.make())
        self.model = model
        self.path = path
    }

    /// One encode + durable write, in seconds.
    func measure() throws -> Double {
        let writer = DurableWriter()
        let started = ContinuousClock.now
        try writer.write(try file.encode(model), to: path)
        return (ContinuousClock.now - started).seconds
    }
}
