import FoundationEssentials
import WorkspaceAPI

/// The daemon side of the control API's JSON: responses with `APICoding`'s conventions, strict request bodies.
enum APIJSON {
    static func encode<Value: Encodable>(_ value: Value) -> [UInt8] {
        do {
            return Array(try APICoding.encoder.encode(value))
        } catch {
            return Array(#"{"error":{"code":"internal","message":"encoding failed","field":null}}"#.utf8)
        }
    }

    /// Decodes a request body: valid UTF-8 JSON, an object, only the
    /// body's own keys, every field well typed. One parse: the unknown-key check runs inside the decode.
    static func decode<Body: APIRequestBody>(_ type: Body.Type, from bytes: [UInt8]) throws(APIFailure) -> Body {
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw APIFailure(.badRequest, APIErrorCode.invalidJSON, "the body is not valid UTF-8")
        }
        do {
            return try APICoding.decoder.decode(StrictBody<Body>.self, from: Data(bytes)).body
        } catch let error as UnknownBodyField {
            throw APIFailure(
                .badRequest, APIErrorCode.unknownField, "this operation does not take \"\(error.key)\"",
                field: error.key)
        } catch let error as DecodingError {
            throw describe(error)
        } catch {
            throw APIFailure(.badRequest, APIErrorCode.invalidJSON, "the body cannot be read: \(error)")
        }
    }

    /// Requires an empty body (or `{}`) for operations that take none.
    static func requireNoBody(_ bytes: [UInt8]) throws(APIFailure) {
        let text = String(decoding: bytes, as: UTF8.self).trimmingWhiteSpace()
        guard text.isEmpty || text == "{}" else {
            throw APIFailure(.badRequest, APIErrorCode.invalidJSON, "this operation takes no body")
        }
    }

    private static func describe(_ error: DecodingError) -> APIFailure {
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            // The parser's own refusal: not JSON at all.
            return APIFailure(.badRequest, APIErrorCode.invalidJSON, "the body is not valid JSON")
        case .typeMismatch(_, let context) where context.codingPath.isEmpty,
            .valueNotFound(_, let context) where context.codingPath.isEmpty:
            return APIFailure(.badRequest, APIErrorCode.invalidJSON, "the body must be a JSON object")
        case .keyNotFound(let key, _):
            return APIFailure(
                .badRequest, APIErrorCode.invalidField, "\"\(key.stringValue)\" is required", field: key.stringValue)
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let field = context.codingPath.last?.stringValue
            return APIFailure(
                .badRequest, APIErrorCode.invalidField, "\"\(field ?? "body")\" must be \(describe(type))",
                field: field)
        case .dataCorrupted(let context):
            return APIFailure(
                .badRequest, APIErrorCode.invalidJSON, context.debugDescription,
                field: context.codingPath.last?.stringValue)
        @unknown default:
            return APIFailure(.badRequest, APIErrorCode.invalidJSON, "the body cannot be read")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type, is String?.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is Int.Type: return "a number"
        case is UInt64.Type: return "a non-negative integer"
        default: return "a value of type \(type)"
        }
    }
}
