import StateStore
import WorkspaceAPI

/// A request body decoded strictly: the root must be an object whose keys are all in `Body.fields`, checked in the
/// same pass that decodes it.
struct StrictBody<Body: APIRequestBody>: Decodable {
    /// The decoded body.
    var body: Body

    init(from decoder: any Decoder) throws {
        // Not an object: `typeMismatch` at the root, which ``APIJSON`` reports as such.
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        let unknown = container.allKeys.lazy.map(\.stringValue).filter { !Body.fields.contains($0) }
        if let first = unknown.min() { throw UnknownBodyField(key: first) }
        body = try Body(from: decoder)
    }
}

/// A body key the operation does not take (the first in sorted order, so the answer is stable).
struct UnknownBodyField: Error {
    var key: String
}
