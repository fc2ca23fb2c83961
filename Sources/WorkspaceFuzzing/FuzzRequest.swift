import NIOHTTP1

/// One request of a control-API fuzz input. An input is up to ``limit`` requests separated by a line `--`; each is
/// a request line (`METHOD TARGET`), header lines (`Name: value`), an empty line and the body — HTTP/1.1 without
/// the version and the framing, which are SwiftNIO's part (and fuzzed by it). Bytes that do not make a request
/// line are skipped.
struct FuzzRequest {
    /// At most this many requests per input: enough to create a record and then change it.
    static let limit = 8

    var method: HTTPMethod
    var uri: String
    var headers: HTTPHeaders
    var body: [UInt8]

    /// The requests in `input`.
    static func parseAll(_ input: [UInt8]) -> [FuzzRequest] {
        input.split(separator: Array("\n--\n".utf8), omittingEmptySubsequences: false).prefix(limit)
            .compactMap(parse)
    }

    static func parse(_ bytes: ArraySlice<UInt8>) -> FuzzRequest? {
        let newline = UInt8(ascii: "\n")
        let (head, body) = headAndBody(bytes)
        var lines = head.split(separator: newline, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        guard !lines.isEmpty else { return nil }
        let requestLine = lines.removeFirst().split(separator: " ", maxSplits: 1)
        // A target SwiftNIO's parser delivers: visible ASCII, no spaces or control characters.
        guard requestLine.count == 2, !requestLine[0].isEmpty,
            requestLine[1].utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else { return nil }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = String(line[..<colon])
            let value = String(line[line.index(after: colon)...].trimmingPrefix(" "))
            // What SwiftNIO's parser lets through: a token for the name, no control characters in the value.
            guard !name.isEmpty, name.utf8.allSatisfy(isTokenByte), value.unicodeScalars.allSatisfy(isValueScalar)
            else { continue }
            headers.add(name: name, value: value)
        }
        return FuzzRequest(
            method: HTTPMethod(rawValue: String(requestLine[0])), uri: String(requestLine[1]), headers: headers,
            body: Array(body))
    }

    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            true
        default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    static func isValueScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || (scalar.value >= 0x20 && scalar.value != 0x7F)
    }

    /// The bytes before the first empty line, and those after it (none when there is no empty line).
    static func headAndBody(_ bytes: ArraySlice<UInt8>) -> (ArraySlice<UInt8>, ArraySlice<UInt8>) {
        let separator = Array("\n\n".utf8)
        guard let range = bytes.firstRange(of: separator) else { return (bytes, []) }
        return (bytes[..<range.lowerBound], bytes[range.upperBound...])
    }
}
