/// Why a request's change options (``ChangeOptions``) could not be read: the daemon answers 400
/// `invalid_parameter` with the description and the field.
package enum ChangeOptionsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A durability flag (the `durable` query item or the `Workspaced-Durable` header, `name`) whose `value` is
    /// not `true`, `false`, `1`, `0`, `yes`, `no` or empty.
    case invalidFlag(name: String, value: String)
    /// An element of `If-Match` that is neither an entity tag, a bare revision number nor `*`.
    case invalidIfMatch(value: String)

    /// The query item or header at fault.
    package var field: String {
        switch self {
        case .invalidFlag(let name, _): return name
        case .invalidIfMatch: return ChangeOptions.ifMatchHeader
        }
    }

    /// A sentence naming the field and what it takes.
    package var description: String {
        switch self {
        case .invalidFlag(let name, _):
            return "\(name) must be true or false"
        case .invalidIfMatch:
            return "If-Match must be an ETag such as \"9f2c4e1a7b3d5e60.12\" (from GET /v1/workspace or a change)"
        }
    }
}
