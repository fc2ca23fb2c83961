import WorkspaceClient

/// The benchmark's command line: `--socket PATH`, `--clients N`, `--requests N`, `--rounds N`.
struct BenchmarkOptions {
    /// A running daemon's socket; `nil` starts one.
    var socketPath: String?
    /// Concurrent clients.
    var clients = 16
    /// Requests per phase (spread over the clients).
    var requests = 4000
    /// Alternating no-op and change phases; the ratio is the median of the rounds.
    var rounds = 5

    /// Parses the arguments.
    init<Arguments: Collection<String>>(_ arguments: Arguments) throws {
        var rest = Array(arguments)
        while !rest.isEmpty {
            let flag = rest.removeFirst()
            guard let value = rest.first else { throw BenchmarkError("\(flag) needs a value") }
            rest.removeFirst()
            switch flag {
            case "--socket": socketPath = value
            case "--clients": clients = try Self.positive(value, flag)
            case "--requests": requests = try Self.positive(value, flag)
            case "--rounds": rounds = try Self.positive(value, flag)
            default: throw BenchmarkError("unknown option \(flag) (use --socket, --clients, --requests, --rounds)")
            }
        }
    }

    private static func positive(_ text: String, _ flag: String) throws -> Int {
        guard let value = Int(text), value > 0 else { throw BenchmarkError("\(flag) must be a positive number") }
        return value
    }
}

/// A benchmark that cannot run, with the reason.
struct BenchmarkError: Error, CustomStringConvertible {
    /// Why.
    var description: String

    init(_ description: String) { self.description = description }
}

/// Waits up to 20 s for the daemon to answer.
func waitUntilReachable(_ client: WorkspaceClient) async throws {
    let deadline = ContinuousClock.now + .seconds(20)
    while ContinuousClock.now < deadline {
        if (try? await client.status()) != nil { return }
        try await Task.sleep(for: .milliseconds(50))
    }
    throw BenchmarkError("workspaced does not answer on \(client.socketPath)")
}
