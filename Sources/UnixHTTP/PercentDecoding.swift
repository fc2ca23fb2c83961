/// Percent-decoding of URI components; `nil` for a broken escape or bytes that are not UTF-8.
enum PercentDecoding {
    /// Decodes `%XX` escapes; with `plusIsSpace` (query strings) also `+` to a space.
    static func decode(_ component: Substring, plusIsSpace: Bool = false) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(component.utf8.count)
        var iterator = component.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+") where plusIsSpace:
                bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Splits `a=1&b&c=x%20y` into decoded items; empty pieces (`a=1&&b`) are skipped.
    static func queryItems(_ query: Substring) -> [HTTPQueryItem]? {
        var items: [HTTPQueryItem] = []
        for piece in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0], plusIsSpace: true) else { return nil }
            if parts.count == 2 {
                guard let value = decode(parts[1], plusIsSpace: true) else { return nil }
                items.append(HTTPQueryItem(name: name, value: value))
            } else {
                items.append(HTTPQueryItem(name: name, value: nil))
            }
        }
        return items
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
