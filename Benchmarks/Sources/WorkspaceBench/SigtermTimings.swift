import Foundation
import StateStore
import WorkspaceModel
import WorkspaceStorage

/// SIGTERM → exit of the release daemon itself on a workspace, timed from the `kill` to the end of the process:
/// dirty (a change acknowledged with `201` and not saved, the debounce a minute and the maximum delay ten, so
/// that the flush on the way out is the only save) against an encode + durable write of the same state measured
/// in the same rounds, and clean (nothing pending: the file is not written).
///
/// The daemon rather than a child mode of this program: what issue 16 asks about is the shipped process's way
/// out (its signal handling, the control server's shutdown, the final flush, the secret store, the exit), and
/// that is only in `workspaced`.
struct SigtermTimings {
    /// The medians of the rounds, in seconds.
    struct Result {
        var dirty: Double
        var encodeAndWrite: Double
        var clean: Double
        var pairedDirtyRatio: Double
    }

    let daemon: String
    let directory: String
    let rounds: Int

    static let configuration = #"{"save": {"debounceMilliseconds": 60000, "maximumDelayMilliseconds": 600000}}"#
    static let favorite = #"{"name": "sigterm bench", "path": "/bench/sigterm"}"#

    /// Measures `rounds` dirty and clean stops of the daemon on `file`.
    func run(file: Data) throws -> Result {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let schema = try WorkspaceSchema.make()
        // The state the dirty daemon flushes: the file with the favorite the change adds.
        var model = try StateCodec(schema: schema).decode(file).model
        _ = try model.addFavorite(name: "sigterm bench", path: "/bench/sigterm", createdAt: Date())
        let baseline = try EncodeAndWrite(model: model, path: directory + "/baseline.json")
        var dirty: [Double] = []
        var clean: [Double] = []
        var baselines: [Double] = []
        for _ in 0..<max(1, rounds) {
            baselines.append(try baseline.measure())
            dirty.append(try stop(file: file, change: true))
            clean.append(try stop(file: file, change: false))
        }
        return Result(
            dirty: median(dirty), encodeAndWrite: median(baselines), clean: median(clean),
            pairedDirtyRatio: median(zip(dirty, baselines).map { $0 / $1 }))
    }

    /// Starts the daemon on `file`, makes the change when `change`, stops it and checks what the file holds.
    private func stop(file: Data, change: Bool) throws -> Double {
        let running = try DaemonProcess(
            daemon: daemon, directory: directory + "/daemon", file: file, configuration: Self.configuration)
        let before = try FileManager.default.attributesOfItem(atPath: running.statePath)[.modificationDate] as? Date
        if change {
            let status = try ControlRequest.send(
                "POST", "/v1/favorites", body: Self.favorite, socketPath: running.socketPath)
            guard status == 201 else { throw BenchError("the change was answered \(status)") }
        }
        let seconds = try running.terminate()
        let after = try FileManager.default.attributesOfItem(atPath: running.statePath)[.modificationDate] as? Date
        let saved = try Data(contentsOf: URL(fileURLWithPath: running.statePath))
        if change {
            guard saved.range(of: Data("sigterm bench".utf8)) != nil else {
                throw BenchError("the daemon exited on SIGTERM without saving the acknowledged change")
            }
        } else {
            guard before == after, saved == file else { throw BenchError("a clean daemon wrote the file on SIGTERM") }
        }
        return seconds
    }
}
