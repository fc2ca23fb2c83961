import FoundationEssentials

/// The elements of S3's XML answers a replica reads, found by name: S3's schema nests none of them in an element
/// of the same name, and no XML library is then needed (FoundationXML would link libxml2 into a static binary).
enum S3XML {
    /// The text of every `<name>…</name>` in `xml`, in order, with the five predefined entities and numeric
    /// references decoded.
    static func elements(_ name: String, in xml: Substring) -> [Substring] {
        var found: [Substring] = []
        var rest = xml[...]
        let open = "<\(name)>"
        let close = "</\(name)>"
        while let start = rest.firstRange(of: open), let end = rest[start.upperBound...].firstRange(of: close) {
            found.append(rest[start.upperBound..<end.lowerBound])
            rest = rest[end.upperBound...]
        }
        return found
    }

    /// The first element `name`'s text, decoded.
    static func text(_ name: String, in xml: Substring) -> String? {
        elements(name, in: xml).first.map(decode)
    }

    /// `text` with entities decoded.
    static func decode(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        var result = ""
        var rest = text[...]
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semicolon = rest[amp...].firstIndex(of: ";") else {
                result += rest[amp...]
                return result
            }
            let entity = rest[rest.index(after: amp)..<semicolon]
            switch entity {
            case "amp": result += "&"
            case "lt": result += "<"
            case "gt": result += ">"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                let scalar: UInt32? =
                    entity.hasPrefix("#x")
                    ? UInt32(entity.dropFirst(2), radix: 16) : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
                if let scalar, let character = Unicode.Scalar(scalar) {
                    result.unicodeScalars.append(character)
                } else {
                    result += rest[amp...semicolon]
                }
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }
}

/// One page of a `ListObjectsV2` answer.
struct S3ListPage {
    /// An object listed: its key and size.
    struct Entry {
        var key: String
        var size: Int
    }

    var contents: [Entry] = []
    var isTruncated = false
    var nextContinuationToken: String?

    init(xml data: Data) {
        let xml = Substring(String(decoding: data, as: UTF8.self))
        for content in S3XML.elements("Contents", in: xml) {
            guard let key = S3XML.text("Key", in: content) else { continue }
            contents.append(Entry(key: key, size: S3XML.text("Size", in: content).flatMap { Int($0) } ?? 0))
        }
        isTruncated = S3XML.text("IsTruncated", in: xml) == "true"
        nextContinuationToken = S3XML.text("NextContinuationToken", in: xml)
    }
}

/// The `<Error>` body of a refused request.
struct S3ErrorBody {
    var code: String?
    var message: String?

    init(xml data: Data) {
        let xml = Substring(String(decoding: data, as: UTF8.self))
        code = S3XML.text("Code", in: xml)
        message = S3XML.text("Message", in: xml)
    }
}
