/// What the configuration file's JSON may hold beyond strict JSON, and what is taken out before it is read: a
/// UTF-8 byte order mark, and a comma after the last member of an object or the last element of an array. These
/// are what Foundation's `JSONSerialization`, the file's earlier parser, took, so a file written for an earlier
/// release still loads.
package enum ConfigurationJSONText {
    /// `bytes` without a leading byte order mark and without the commas that only close a member or element list
    /// (a comma after a value and before, past white space, `}` or `]`); the bytes of strings are left as they are.
    package static func strict(_ bytes: [UInt8]) -> [UInt8] {
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count - start)
        var inString = false
        var escaped = false
        var pendingComma: Int?
        // The byte before the last one that is not white space: a comma after `{`, `[` or another comma closes
        // no list, and stays for the reader to refuse.
        var previous: UInt8 = 0
        for byte in bytes[start...] {
            if inString {
                output.append(byte)
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                output.append(byte)
                continue
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if let comma = pendingComma { output.remove(at: comma) }
            case UInt8(ascii: "\""):
                inString = true
            default:
                break
            }
            let closesAValue = ![UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: ",")].contains(previous)
            pendingComma = byte == UInt8(ascii: ",") && closesAValue ? output.count : nil
            previous = byte
            output.append(byte)
        }
        return output
    }
}
