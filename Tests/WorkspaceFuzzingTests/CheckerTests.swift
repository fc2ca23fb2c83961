import Foundation
import NIOHTTP1
import Testing
import UnixHTTP

@testable import WorkspaceFuzzing

/// The checks themselves can fail: each broken promise is reported, and the inputs reach the code they fuzz.
@Suite("Fuzz checkers")
struct CheckerTests {
    static func request(_ text: String) throws -> FuzzRequest {
        try #require(FuzzRequest.parseAll(Array(text.utf8)).first)
    }

    @Test func aRequestIsParsedWithHeadersAndBody() throws {
        let requests = FuzzRequest.parseAll(
            Array("PATCH /v1/owner?durable=true\nIf-Match: \"3\"\n\n{\"alias\": \"a\"}\n--\nGET /v1/status\n\n".utf8))
        #expect(requests.count == 2)
        #expect(requests.first?.method == .PATCH)
        #expect(requests.first?.uri == "/v1/owner?durable=true")
        #expect(requests.first?.headers.first(name: "if-match") == "\"3\"")
        #expect(requests.first.map { String(decoding: $0.body, as: UTF8.self) } == "{\"alias\": \"a\"}")
        #expect(requests.last?.method == .GET)
        #expect(FuzzRequest.parseAll(Array("norequestline\n\n".utf8)).isEmpty)
    }

    /// The seeds reach the routes' code: their changes are accepted, not all refused at the door.
    @Test func theSeedChangesAreAccepted() async throws {
        let fuzzer = try ControlAPIFuzzer()
        for (name, bytes) in try StoredInputTests.inputs(.controlAPI)
        where !name.hasPrefix("regression-") && name != "malformed" {
            let (statuses, finding) = await fuzzer.exchange(bytes)
            #expect(finding == nil, "\(name): \(finding.map(String.init(describing:)) ?? "")")
            #expect(statuses.contains { (200..<300).contains($0) }, "\(name): \(statuses)")
        }
        let (statuses, _) = await fuzzer.exchange(
            try #require(try StoredInputTests.inputs(.controlAPI).first { $0.name == "malformed" }).bytes)
        #expect(statuses.allSatisfy { (400..<500).contains($0) }, "malformed: \(statuses)")
    }

    @Test func aServerErrorIsAFinding() throws {
        let response = HTTPResponse.error(.internalServerError, code: "internal", message: "boom")
        #expect(ControlAPIFuzzer.problem(with: response, to: try Self.request("GET /v1/status\n\n")) != nil)
    }

    @Test func anErrorWithoutAJSONBodyIsAFinding() throws {
        let response = HTTPResponse(status: .badRequest, body: Array("bad".utf8))
        #expect(ControlAPIFuzzer.problem(with: response, to: try Self.request("POST /v1/nothing\n\n")) != nil)
    }

    @Test func aStatusTheRouteDoesNotListIsAFinding() throws {
        let response = HTTPResponse.error(.conflict, code: "conflict", message: "no")
        let finding = ControlAPIFuzzer.problem(with: response, to: try Self.request("GET /v1/workspace\n\n"))
        #expect(finding?.contains("does not list") == true, "\(finding ?? "nil")")
        let listed = HTTPResponse.error(.notFound, code: "not_found", message: "no")
        #expect(ControlAPIFuzzer.problem(with: listed, to: try Self.request("GET /v1/projects/x\n\n")) == nil)
    }

    @Test func garbageIsQuarantinedOrLeftAsItIs() async throws {
        // Garbage is quarantined (workspace) or left as it is (secrets): both keep their promise.
        let garbage = Data([0x00, 0xFF, 0x7B, 0x22])
        #expect(try await WorkspaceFileFuzzer().check(garbage) == nil)
        #expect(try await SecretsFileFuzzer().check(garbage) == nil)
    }
}
