import Foundation
import NIOHTTP1
import Testing
import UnixHTTP
import WorkspaceAPI
import WorkspaceClient
import WorkspaceModel

@Suite("WorkspaceClient errors")
struct ClientErrorTests {
    @Test("a JSON error body becomes .refused with the status, code, message and field")
    func refusalIsTyped() async throws {
        let stub = try await StubDaemon(
            status: .badRequest, json: Sample.error("invalid_field", "name is empty", field: "name"))
        let error = await withStubError(stub) { try await $0.createProject(name: "", layout: .single) }
        #expect(
            error == .refused(status: 400, APIError(code: "invalid_field", message: "name is empty", field: "name")))
    }

    @Test("404, 412 and 503 refusals keep their status", arguments: [404, 412, 503])
    func refusalStatuses(_ status: Int) async throws {
        let stub = try await StubDaemon(
            status: HTTPResponseStatus(statusCode: status), json: Sample.error("some_code", "no"))
        let error = await withStubError(stub) { try await $0.removeFavorite(id: WorkspaceID()) }
        #expect(error == .refused(status: status, APIError(code: "some_code", message: "no")))
    }

    @Test("an error status without the API's error body is an invalid response")
    func errorWithoutBody() async throws {
        let stub = try await StubDaemon { _ in
            HTTPResponse(
                status: .internalServerError, headers: ["Content-Type": "text/plain"], body: Array("oops".utf8))
        }
        let error = await withStubError(stub) { try await $0.status() }
        guard case .invalidResponse(let reason) = error else {
            Issue.record("expected .invalidResponse, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("500") && reason.contains("oops"))
    }

    @Test("a success body of the wrong shape is an invalid response")
    func wrongShape() async throws {
        let stub = try await StubDaemon(json: #"{"revision": "seven"}"#)
        let error = await withStubError(stub) { try await $0.flush() }
        guard case .invalidResponse = error else {
            Issue.record("expected .invalidResponse, got \(String(describing: error))")
            return
        }
    }

    @Test("a missing socket is .unreachable naming the path")
    func missingSocket() async throws {
        let path = "/tmp/wc-missing-\(UUID().uuidString.prefix(8)).sock"
        do {
            _ = try await WorkspaceClient(socketPath: path, timeout: .seconds(5)).status()
            Issue.record("expected an error")
        } catch {
            guard case .unreachable(let socketPath, let reason) = error else {
                Issue.record("expected .unreachable, got \(error)")
                return
            }
            #expect(socketPath == path)
            #expect(!reason.isEmpty)
            #expect(error.description.contains(path))
        }
    }

    @Test("a daemon that does not answer in time is .timedOut")
    func timeout() async throws {
        let stub = try await StubDaemon { _ in
            // Time under test: an answer slower than the client's 300 ms timeout.
            try? await Task.sleep(for: .seconds(3))
            return HTTPResponse.json(.ok, body: Array(Sample.owner.utf8))
        }
        let error = await withStubError(stub, timeout: .milliseconds(300)) { try await $0.owner() }
        guard case .timedOut(let path, _) = error else {
            Issue.record("expected .timedOut, got \(String(describing: error))")
            return
        }
        #expect(path == stub.socketPath)
    }
}

/// Runs `call` against the stub and returns the error it threw (`nil`, recorded as an issue, when it succeeded).
private func withStubError<T>(
    _ stub: StubDaemon, timeout: Duration = .seconds(60),
    _ call: (WorkspaceClient) async throws -> T
) async -> WorkspaceClientError? {
    let client = WorkspaceClient(socketPath: stub.socketPath, timeout: timeout)
    let outcome: WorkspaceClientError?
    do {
        _ = try await call(client)
        Issue.record("expected the call to fail")
        outcome = nil
    } catch let error as WorkspaceClientError {
        outcome = error
    } catch {
        Issue.record("expected a WorkspaceClientError, got \(error)")
        outcome = nil
    }
    await stub.stop()
    return outcome
}
