import Foundation
import Testing
import UnixHTTP
import WorkspaceAPI

/// The contract's error body (`APIError`) and the transport's (`HTTPErrorBody`) are two types of one document: a
/// client decodes the daemon's refusals and the transport's alike, and the daemon's bytes stay what they were.
@Suite("APIError on the wire")
struct APIErrorWireTests {
    static let samples: [(code: String, message: String, field: String?)] = [
        ("invalid_field", "name is empty", "name"),
        ("not_found", "no project with id 1", nil),
        ("invalid_parameter", "If-Match must be an ETag such as \"a.1\" (from GET /v1/workspace)", "If-Match"),
        ("invalid_json", "é, ü and a tab\there", nil),
    ]

    @Test("APIError encodes the same bytes as HTTPErrorBody", arguments: 0..<samples.count)
    func sameBytes(index: Int) {
        let (code, message, field) = Self.samples[index]
        let contract = APIError(code: code, message: message, field: field).encoded()
        let transport = HTTPErrorBody(code: code, message: message, field: field).encoded()
        #expect(contract == transport, "\(String(decoding: contract, as: UTF8.self))")
    }

    @Test("each decodes what the other encodes", arguments: 0..<samples.count)
    func decodesEachOther(index: Int) throws {
        let (code, message, field) = Self.samples[index]
        let contract = APIError(code: code, message: message, field: field)
        let transport = HTTPErrorBody(code: code, message: message, field: field)
        let decodedContract = try JSONDecoder().decode(APIError.self, from: Data(transport.encoded()))
        let decodedTransport = try JSONDecoder().decode(HTTPErrorBody.self, from: Data(contract.encoded()))
        #expect(decodedContract == contract)
        #expect(decodedTransport == transport)
        #expect(contract.description == transport.description)
    }

    @Test("a refusal without a field says so with null")
    func explicitNull() {
        let text = String(decoding: APIError(code: "not_found", message: "no").encoded(), as: UTF8.self)
        #expect(text == #"{"error":{"code":"not_found","field":null,"message":"no"}}"#)
    }
}
