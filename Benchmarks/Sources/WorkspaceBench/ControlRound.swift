import Foundation
import WorkspaceClient

/// One round of the control API benchmark: a no-op phase (`GET /v1/status`) and the change phase measured right
/// after it (adding favorites and creating projects in turn), each with the daemon's CPU time per request, the
/// change phase's including the save it caused (a flush after the phase, outside its wall time).
struct ControlRound {
    var noop: PhaseMeasurement
    var changes: PhaseMeasurement
    /// The daemon's CPU seconds per no-op request.
    var noopCPUPerRequest: Double
    /// The daemon's CPU seconds per change, the save it caused included.
    var changeCPUPerRequest: Double

    /// Changes per second ÷ no-op requests per second.
    var ratio: Double { changes.perSecond / noop.perSecond }

    /// Measures round `number` against `daemon` through `client`.
    static func run(
        _ number: Int, daemon: DaemonProcess, client: WorkspaceClient, clients: Int, requests: Int
    ) async throws -> ControlRound {
        let noopStart = try daemon.cpuSeconds()
        let noop = try await PhaseMeasurement.measure(
            "round \(number) no-op GET /v1/status", clients: clients, requests: requests
        ) { _, _ in
            _ = try await client.status()
        }
        let changeStart = try daemon.cpuSeconds()
        let changes = try await PhaseMeasurement.measure(
            "round \(number) changes (add favorite / create project)", clients: clients, requests: requests
        ) { worker, index in
            let name = "bench-\(number)-\(worker)-\(index)"
            if index.isMultiple(of: 2) {
                _ = try await client.addFavorite(name: name, path: "/bench/\(number)/\(worker)/\(index)")
            } else {
                _ = try await client.createProject(name: name, layout: .single)
            }
        }
        // The save the changes caused, waited for before the next phase: otherwise it runs after the debounce, in
        // the next round's no-op phase (a 10 MB save is about half a second of CPU). Its CPU time counts for the
        // changes; its wall time counts for neither phase.
        let flushStart = ContinuousClock.now
        _ = try await client.flush()
        let flush = (ContinuousClock.now - flushStart).seconds
        let end = try daemon.cpuSeconds()
        let round = ControlRound(
            noop: noop, changes: changes, noopCPUPerRequest: (changeStart - noopStart) / Double(noop.count),
            changeCPUPerRequest: (end - changeStart) / Double(changes.count))
        print(String(format: "round %d ratio: %.2f (then the flush: %.1f ms)", number, round.ratio, flush * 1000))
        return round
    }
}
