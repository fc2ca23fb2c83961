import ArgumentParser
import WorkspaceAPI
import WorkspaceClient
import WorkspaceModel

extension ConnectionOptions {
    /// Resolves `argument` to the full id of a record of `kind`, runs `call` with that id, prints its answer and
    /// maps failures to exit codes.
    ///
    /// A full id is used as given, without a request (one the workspace lacks gets the daemon's `not_found`). A
    /// prefix costs one `GET /v1/workspace` first; the change is then sent for the full id it resolved to, so a
    /// record added meanwhile is never picked by mistake.
    func perform<Value: Encodable>(
        resolving argument: IDArgument, as kind: RecordKind,
        _ call: (WorkspaceClient, WorkspaceID) async throws -> Value,
        human: (Value, WorkspaceID) -> String
    ) async throws {
        try await perform(
            resolving: argument, with: { try await Self.resolve($0, as: kind, with: $1) }, call, human: human)
    }

    /// Resolves `argument` with `resolve` (a full id as given; a prefix against the records `resolve` reads with
    /// the client), runs `call` with the full id, prints its answer and maps failures to exit codes.
    func perform<Value: Encodable>(
        resolving argument: IDArgument,
        with resolve: (IDReference, WorkspaceClient) async throws -> WorkspaceID,
        _ call: (WorkspaceClient, WorkspaceID) async throws -> Value,
        human: (Value, WorkspaceID) -> String
    ) async throws {
        let client = client()
        let id: WorkspaceID
        do {
            id = try await resolve(argument.reference, client)
        } catch let error as WorkspaceClientError {
            throw output.fail(error)
        } catch let error as IDResolutionError {
            throw output.fail(error)
        }
        let value: Value
        do {
            value = try await call(client, id)
        } catch let error as WorkspaceClientError {
            throw output.fail(error)
        }
        try output.emit(value) { human($0, id) }
    }

    /// The full id `reference` names among the records of `kind`: itself when it is one, else the one record whose
    /// id it starts (read with `client`; with `revision`, in the workspace as it was then).
    static func resolve(
        _ reference: IDReference, as kind: RecordKind, with client: WorkspaceClient, at revision: UInt64? = nil
    ) async throws -> WorkspaceID {
        if case .full(let id) = reference { return id }
        let read: WorkspaceResponse
        if let revision {
            read = try await client.workspace(at: revision)
        } else {
            read = try await client.workspace()
        }
        return try IDPrefixResolver(read.workspace, kind: kind).resolve(reference)
    }
}

extension Output {
    /// Reports an id that names no record (exit 1, as the daemon's `not_found`; with `--json` its error body too)
    /// or several (exit 64, a usage error, listing them).
    func fail(_ error: IDResolutionError) -> ExitCode {
        switch error {
        case .notFound:
            if json {
                let body = APIError(code: APIErrorCode.notFound, message: error.description, field: "id")
                if let data = try? APICoding.prettyEncoder.encode(body) {
                    Self.standardOutput(String(decoding: data, as: UTF8.self))
                }
            }
            Self.standardError("workspacectl: \(error)")
            return ExitCode(.refused)
        case .ambiguous:
            Self.standardError("workspacectl: \(error)")
            return ExitCode(.usage)
        }
    }
}
