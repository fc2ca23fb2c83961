import NIOHTTP1

/// What a handler answers. The server adds `Content-Length` and `Connection`; a streamed response (``bodyStream``)
/// is sent without a length and closes its connection when the body ends.
public struct HTTPResponse: Sendable {
    /// The status code and reason.
    public var status: HTTPResponseStatus
    /// The response headers.
    public var headers: HTTPHeaders
    /// The body bytes (unused when ``bodyStream`` is set).
    public var body: [UInt8]
    /// A body produced over time instead of ``body``; `nil` for a complete response.
    public var bodyStream: HTTPBodyStream?

    /// Creates a response.
    public init(status: HTTPResponseStatus, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response whose body `produce` writes over time (``HTTPBodyStream``), e.g. newline-delimited JSON events
    /// with `Content-Type: application/x-ndjson`.
    public static func stream(
        _ status: HTTPResponseStatus = .ok, headers: HTTPHeaders = [:], _ produce: @escaping HTTPBodyStream.Producer
    ) -> HTTPResponse {
        var response = HTTPResponse(status: status, headers: headers)
        response.bodyStream = HTTPBodyStream(produce)
        return response
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
