import Crypto
import Foundation

/// An API token as a client presents it: `wsd_<12 hex id>_<base64url of 32 random bytes>`.
///
/// The id names the token in lists and logs; the 256-bit secret is shown once, when the token is created, and
/// stored only as its SHA-256 (``secretHash``). ``description`` never contains the secret, so a token can be
/// interpolated into a log message safely; ``text`` is the token itself.
public struct BearerToken: Sendable, Equatable, CustomStringConvertible {
    /// What every token starts with.
    public static let prefix = "wsd_"
    /// Hex digits in an id.
    public static let idLength = 12
    /// Random bytes in a secret.
    public static let secretByteCount = 32

    /// 12 lower-case hex digits.
    public let id: String
    let secret: [UInt8]

    /// The token's parts; `secret` must be 32 bytes.
    init(id: String, secret: [UInt8]) {
        precondition(secret.count == Self.secretByteCount)
        self.id = id
        self.secret = secret
    }

    /// A new token: a random 48-bit id and a random 256-bit secret from `generator` (the system's cryptographic
    /// source by default).
    public static func generate() -> BearerToken {
        var generator = SystemRandomNumberGenerator()
        return generate(using: &generator)
    }

    /// A new token from `generator`; tests pass a seeded one.
    public static func generate<Generator: RandomNumberGenerator>(using generator: inout Generator) -> BearerToken {
        let idBytes = (0..<(idLength / 2)).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let secret = (0..<secretByteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return BearerToken(id: Hex.encode(idBytes), secret: secret)
    }

    /// The token to give to a client (the secret included): show it once, never log it.
    public var text: String { Self.prefix + id + "_" + Base64URL.encode(secret) }

    /// SHA-256 of the secret: what the store keeps.
    public var secretHash: [UInt8] { Array(SHA256.hash(data: secret)) }

    /// ``secretHash`` as lower-case hex.
    public var secretHashHex: String { Hex.encode(secretHash) }

    /// `token <id>`: never the secret.
    public var description: String { "token \(id)" }

    /// Reads a presented token.
    ///
    /// - Returns: the token, or ``TokenParse/malformed(id:)`` with the id when the text starts like a token with
    ///   a well-formed id (so a refusal can still name it).
    public static func parse(_ text: some StringProtocol) -> TokenParse {
        guard text.hasPrefix(prefix) else { return .malformed(id: nil) }
        let rest = text.dropFirst(prefix.count)
        let idPart = rest.prefix(idLength)
        guard idPart.count == idLength, Hex.decode(idPart) != nil else { return .malformed(id: nil) }
        let id = String(idPart)
        let afterID = rest.dropFirst(idLength)
        guard afterID.first == "_", let secret = Base64URL.decode(afterID.dropFirst()),
            secret.count == secretByteCount
        else { return .malformed(id: id) }
        return .token(BearerToken(id: id, secret: secret))
    }

    /// Whether `text` is a token id (12 lower-case hex digits).
    public static func isValidID(_ text: some StringProtocol) -> Bool {
        text.utf8.count == idLength && Hex.decode(text) != nil
    }
}

/// The outcome of ``BearerToken/parse(_:)``.
public enum TokenParse: Sendable, Equatable {
    /// A well-formed token.
    case token(BearerToken)
    /// Not a token; `id` when the text has the prefix and a well-formed id.
    case malformed(id: String?)

    /// The token's id, when the text has one (well-formed or not).
    public var id: String? {
        switch self {
        case .token(let token): return token.id
        case .malformed(let id): return id
        }
    }
}

/// Base64 with the URL-safe alphabet (`-`, `_`) and no padding (RFC 4648 §5).
enum Base64URL {
    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ text: some StringProtocol) -> [UInt8]? {
        guard text.utf8.allSatisfy({ Self.isAlphabet($0) }) else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        return Data(base64Encoded: standard).map(Array.init)
    }

    private static func isAlphabet(_ character: UInt8) -> Bool {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }
}
