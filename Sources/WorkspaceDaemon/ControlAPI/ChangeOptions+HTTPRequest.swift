import UnixHTTP
import WorkspaceAPI

extension ChangeOptions {
    /// The options `request` carries: the contract's parser (``WorkspaceAPI/ChangeOptions``) over the `durable`
    /// query item, the first `Workspaced-Durable` header and the elements of `If-Match`; a malformed one is a 400
    /// `invalid_parameter` naming it.
    init(_ request: HTTPRequest) throws(APIFailure) {
        do {
            try self.init(
                durableQuery: request.query(Self.durableQueryItem),
                durableHeader: request.headers.first(name: Self.durableHeader),
                ifMatch: request.headers[canonicalForm: Self.ifMatchHeader].map(String.init))
        } catch {
            throw APIFailure(error)
        }
    }
}
