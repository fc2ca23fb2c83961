import NIOHTTP1
import UnixHTTP

/// Sends one request with exactly these bytes through `UnixHTTPClient`.
func rawSend(
    _ daemon: LiveDaemon, _ method: String, _ target: String, headers: [(String, String)] = [],
    body: [UInt8] = []
) async throws -> RawResponse {
    var allHeaders = HTTPHeaders(headers)
    if !body.isEmpty && !allHeaders.contains(name: "Content-Type") {
        allHeaders.add(name: "Content-Type", value: "application/json")
    }
    let response = try await UnixHTTPClient(socketPath: daemon.socketPath, timeout: .seconds(30))
        .send(method: HTTPMethod(rawValue: method), path: target, headers: allHeaders, body: body)
    return RawResponse(status: Int(response.status.code), headers: response.headers, body: response.body)
}

/// A response as received.
struct RawResponse {
    var status: Int
    var headers: HTTPHeaders
    var body: [UInt8]
}
