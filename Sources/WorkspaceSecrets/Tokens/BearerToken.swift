import Crypto
import FoundationEssentials

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
        // On the UTF-8 bytes: this runs for every request that carries a token.
        let bytes = Array(text.utf8)
        let prefixBytes = Array(prefix.utf8)
        guard bytes.count >= prefixBytes.count, bytes[..<prefixBytes.count].elementsEqual(prefixBytes) else {
            return .malformed(id: nil)
        }
        let idEnd = prefixBytes.count + idLength
        guard bytes.count >= idEnd, bytes[prefixBytes.count..<idEnd].allSatisfy(Hex.isLowercaseDigit) else {
            return .malformed(id: nil)
        }
        let id = String(decoding: bytes[prefixBytes.count..<idEnd], as: UTF8.self)
        guard bytes.count > idEnd, bytes[idEnd] == UInt8(ascii: "_"),
            let secret = Base64URL.decode(bytes[(idEnd + 1)...]), secret.count == secretByteCount
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
        let standard = Data(bytes).base64EncodedString().utf8
        let urlSafe = standard.compactMap { byte -> UInt8? in
            switch byte {
            case UInt8(ascii: "+"): UInt8(ascii: "-")
            case UInt8(ascii: "/"): UInt8(ascii: "_")
            case UInt8(ascii: "="): nil
            default: byte
            }
        }
        return String(decoding: urlSafe, as: UTF8.self)
    }

    static func decode(_ text: some StringProtocol) -> [UInt8]? {
        decode(Array(text.utf8)[...])
    }

    /// Decodes unpadded base64url bytes directly (no string rewriting): `nil` for a byte outside the alphabet
    /// or a length no encoding has.
    static func decode(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
        guard bytes.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in bytes {
            guard let value = sextet(byte) else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        // Leftover bits must be zero, as an encoder writes them.
        guard accumulator & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return output
    }

    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): return 62
        case UInt8(ascii: "_"): return 63
        default: return nil
        }
    }
}
