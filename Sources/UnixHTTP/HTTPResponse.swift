import NIOHTTP1

/// What a handler answers. The server adds `Content-Length` and `Connection`.
public struct HTTPResponse: Sendable {
    /// The status code and reason.
    public var status: HTTPResponseStatus
    /// The response headers.
    public var headers: HTTPHeaders
    /// The body bytes.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: HTTPResponseStatus, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response with `Content-Type: application/json` and the given, already encoded, JSON body.
    public static func json(_ status: HTTPResponseStatus, body: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: body)
    }

    /// The error shape every refusal uses: `{"error": {"code": ..., "message": ..., "field": ...}}`.
    ///
    /// - Parameters:
    ///   - code: A stable, machine-readable code such as `not_found`.
    ///   - message: A sentence for people.
    ///   - field: The request field at fault, or `nil` (encoded as `null`).
    public static func error(
        _ status: HTTPResponseStatus, code: String, message: String, field: String? = nil
    ) -> HTTPResponse {
        json(status, body: HTTPErrorBody(code: code, message: message, field: field).encoded())
    }
}
