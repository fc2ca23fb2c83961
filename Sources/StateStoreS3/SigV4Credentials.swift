/// The credentials a request is signed with: an access key, its secret, and for temporary credentials the session
/// token (sent as `X-Amz-Security-Token` and signed).
public struct SigV4Credentials: Sendable, Equatable {
    /// The access key id (`AKID…`), sent in the clear in the `Authorization` header.
    public var accessKeyID: String
    /// The secret access key, which never leaves the process: only signatures made with it are sent.
    public var secretAccessKey: String
    /// The session token of temporary credentials; `nil` for long-term keys.
    public var sessionToken: String?

    /// Credentials of `accessKeyID` and `secretAccessKey`, with `sessionToken` for temporary ones.
    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }
}

extension SigV4Credentials: CustomStringConvertible {
    /// The access key id only: the secret and the token are never printed.
    public var description: String { "SigV4Credentials(\(accessKeyID), secret and token redacted)" }
}
