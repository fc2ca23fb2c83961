import UnixHTTP

/// The control server during the start: its socket bound (or systemd's adopted) by a task of its own while the
/// state loads, accepting nothing until ``serve(router:authorize:)``. A client that connects meanwhile waits in the
/// socket's backlog, as it does under socket activation, instead of being refused; the listener's set-up (NIO's
/// pipeline, whose handler types' first dynamic casts each scan the process's conformance records) costs the
/// start nothing.
struct PendingControlServer: Sendable {
    /// The server, listening or still binding.
    let server: HTTPServer
    private let bound = OnceValue<Result<Void, HTTPServerError>>()

    /// Begins listening on `binding` in a task of its own, on the global executor whatever executor the caller's
    /// task prefers (the load holds the caller's thread until it ends).
    init(server: HTTPServer, binding: HTTPServerBinding) {
        self.server = server
        Task(executorPreference: globalConcurrentExecutor) { [bound] in
            do throws(HTTPServerError) {
                try await server.listen(binding: binding)
                bound.set(.success(()))
            } catch {
                bound.set(.failure(error))
            }
        }
    }

    /// Waits until the socket is bound, then accepts its connections, answering with `router`.
    ///
    /// - Throws: ``DaemonStartError/controlSocket(_:)`` when the socket could not be bound or adopted.
    func serve(router: HTTPRouter, authorize: @escaping HTTPServer.Authorizer) async throws(DaemonStartError) {
        do throws(HTTPServerError) {
            try await bound.value.get()
            try await server.serve(router: router, authorize: authorize)
        } catch {
            throw .controlSocket("\(error)")
        }
    }

    /// For a start that fails: waits for the bind, then closes the listener and removes the socket file it
    /// created (a socket file something else listens on is never touched: the bind refused it).
    func abandon() async {
        _ = await bound.value
        await server.shutdown()
    }
}
