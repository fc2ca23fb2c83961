/// The canonical forms Signature Version 4 hashes: the percent-encoding, the path, the query and the headers.
enum SigV4Canonical {
    /// `text` percent-encoded as SigV4 requires (RFC 3986): every byte of its UTF-8 but the unreserved
    /// `A–Z a–z 0–9 - . _ ~` as `%XY` in upper-case hex; with `keepingSlashes`, `/` too is kept.
    static func encode(_ text: String, keepingSlashes: Bool = false) -> String {
        var encoded: [UInt8] = []
        encoded.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                encoded.append(byte)
            case UInt8(ascii: "/") where keepingSlashes:
                encoded.append(byte)
            default:
                encoded += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// The canonical URI of `path`: for a service other than S3, with `.` and `..` segments resolved and empty
    /// segments removed (a trailing `/` kept); S3 signs object keys as they are, since `a//b` and `a/./b` are
    /// keys of their own. Then percent-encoded, slashes kept.
    static func uri(_ path: String, normalizing: Bool) -> String {
        guard normalizing else { return encode(path.isEmpty ? "/" : path, keepingSlashes: true) }
        var segments: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch segment {
            case ".": continue
            case "..": _ = segments.popLast()
            default: segments.append(segment)
            }
        }
        var normalized = "/" + segments.joined(separator: "/")
        let last = path.split(separator: "/", omittingEmptySubsequences: false).last
        if path.hasSuffix("/") || last == "." || last == "..", !segments.isEmpty { normalized += "/" }
        return encode(normalized, keepingSlashes: true)
    }

    /// The canonical query: each name and value encoded, sorted by name then value, joined by `&`.
    static func query(_ parameters: [(name: String, value: String)]) -> String {
        parameters.map { (encode($0.name), encode($0.value)) }
            .sorted { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 < $1.0 }
            .map { "\($0.0)=\($0.1)" }
            .joined(separator: "&")
    }

    /// The canonical headers (`name:value\n` each, names in lower case and sorted, values trimmed with inner runs
    /// of spaces made one, a repeated name's values joined by `,` in order) and the signed headers' list.
    static func headers(_ headers: [(name: String, value: String)]) -> (canonical: String, signed: String) {
        var values: [String: [String]] = [:]
        for (name, value) in headers {
            values[name.lowercased(), default: []].append(trimmed(value))
        }
        let names = values.keys.sorted()
        let canonical = names.map { "\($0):\(values[$0]!.joined(separator: ","))\n" }.joined()
        return (canonical, names.joined(separator: ";"))
    }

    /// `value` without leading and trailing white space, each inner run of spaces and tabs (and line breaks, of a
    /// value folded over lines) made one space.
    static func trimmed(_ value: String) -> String {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
            .joined(separator: " ")
    }
}
