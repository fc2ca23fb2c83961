import FoundationEssentials

/// The JSON conventions of the control API, in one place for the daemon's routes, the client and `workspacectl`:
/// sorted keys (byte-stable bodies), slashes unescaped, ISO 8601 dates. `JSONEncoder` and `JSONDecoder` are
/// thread-safe, so one of each is shared (making one per request shows in the change rate).
public enum APICoding {
    /// The encoder for API bodies.
    public static let encoder: JSONEncoder = makeEncoder(pretty: false)
    /// The same conventions, indented (for people and diffs: `workspacectl --json`).
    public static let prettyEncoder: JSONEncoder = makeEncoder(pretty: true)
    /// The decoder for API bodies.
    public static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    private static func makeEncoder(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting =
            pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
