import UnixHTTP
import WorkspaceAPI
import WorkspaceModel

/// The query parameters of the history's reads (`GET /v1/history`, `GET /v1/workspace?at=`), each refused with
/// 400 `invalid_parameter` naming it when malformed.
enum HistoryParameters {
    /// The entries `GET /v1/history` gives without `limit`.
    static let defaultLimit = 100
    /// The most entries one page may ask for.
    static let maximumLimit = 1000

    /// The revision `name` gives (`at`, `since`): decimal digits only, within 64 bits; `nil` when absent.
    static func revision(_ request: HTTPRequest, _ name: String) throws(APIFailure) -> UInt64? {
        guard let text = request.query(name) else { return nil }
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let revision = UInt64(text)
        else {
            throw APIFailure(
                .badRequest, APIErrorCode.invalidParameter,
                "\(name) must be a revision, a non-negative integer such as 42; \"\(text)\" is not", field: name)
        }
        return revision
    }

    /// `limit`: 1 to ``maximumLimit``, ``defaultLimit`` when absent.
    static func limit(_ request: HTTPRequest) throws(APIFailure) -> Int {
        guard let text = request.query("limit") else { return defaultLimit }
        guard let limit = Int(text), (1...maximumLimit).contains(limit),
            text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else {
            throw APIFailure(
                .badRequest, APIErrorCode.invalidParameter,
                "limit must be a number from 1 to \(maximumLimit); \"\(text)\" is not", field: "limit")
        }
        return limit
    }

    /// `record`: a record id; `nil` when absent.
    static func record(_ request: HTTPRequest) throws(APIFailure) -> WorkspaceID? {
        guard let text = request.query("record") else { return nil }
        guard let id = WorkspaceID(text) else {
            throw APIFailure(
                .badRequest, APIErrorCode.invalidParameter, "record must be a record id (a UUID); \"\(text)\" is not",
                field: "record")
        }
        return id
    }
}
