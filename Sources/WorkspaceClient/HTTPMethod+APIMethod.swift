import NIOHTTP1
import WorkspaceAPI

extension HTTPMethod {
    /// The transport's method for a method of the contract: the client's side of the mapping, at the edge where
    /// a request leaves for UnixHTTP.
    init(_ method: APIMethod) { self.init(rawValue: method.rawValue) }
}
