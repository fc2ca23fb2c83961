// What JSONDecoder does with odd bytes on this toolchain (Swift 6.3.1, swift-foundation's JSONDecoder, Linux),
// found with a throwaway program and pinned by JSONDefectTests:
//
// - Nesting: at most 512 arrays and objects, counted together. 512 levels decode; the 513th `[` or `{` makes the
//   whole document "not valid JSON". `depthLimit` defaults to the same 512.
// - A UTF-8 byte order mark (EF BB BF) as the first three bytes is skipped; a second one, or one after
//   whitespace, is an error. A FE FF or FF FE mark, or NUL bytes among the first four bytes (`1\0`, `{\0}\0`),
//   make the decoder read the bytes as UTF-16 or UTF-32; this scanner names that as a defect, since RFC 8259 and
//   the state file are UTF-8.
// - Duplicate keys are accepted silently and the FIRST value wins: `{"a":1,"a":2}` decodes `a` as 1, for
//   synthesized Codable and for `[String: T]` alike (JSONSerialization keeps the last instead). Keys are compared
//   as Swift strings after unescaping, so `"a"` and `"\u0061"` are one key, and so are canonically equivalent
//   keys: "é" and "e\u{301}", "K" and "\u{212A}" (KELVIN SIGN). This scanner compares keys the same way.
// - One trailing comma before `]` or `}` is accepted (`[1,]`, `{"a":1,}`); `[,]`, `[1,,]` and `{,}` are not.
// - Strings and numbers are only checked when a Decodable type reads them: invalid UTF-8 (C3 28, FF, C0 AF,
//   ED A0 80, a truncated sequence), an unescaped control character, an escape such as `\q`, an unpaired
//   surrogate escape (`\uD800`, `\uDC00`) or a number such as `01`, `1.`, `-`, `1e` fails the decode of that
//   value, and passes unnoticed in a value nothing reads. This scanner checks every value.
// - Whitespace is space, tab, CR and LF only. Noncharacters (U+FFFF, `\uFFFE`) and `\u0000` are accepted.
// - A number too large or too small for a Double (1e400, 1e-400) fails a Double decode with a coding path; the
//   number's range is the decoder's business, this scanner checks its syntax only.

import FoundationEssentials
import Glibc

/// One thing that makes bytes unreadable as a state file, or ambiguous, named for people.
package struct JSONDefect: Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    package enum Kind: Equatable, Sendable {
        /// The first byte of an invalid UTF-8 sequence, inside a string or outside.
        case invalidUTF8
        /// Arrays and objects nested deeper than `limit`.
        case tooDeep(limit: Int)
        /// An object holds this key (unescaped) twice.
        case duplicateKey(String)
        /// Anything else, as a phrase: "unexpected end of the file", "invalid escape \q", …
        case syntax(String)
    }

    /// What is wrong.
    package let kind: Kind
    /// Where, as a 0-based offset from the first byte of the data (a byte order mark included).
    package let byteOffset: Int
    /// Where, as a 1-based line number (lines end with LF).
    package let line: Int
    /// Where, as a 1-based column in bytes.
    package let column: Int
    /// Path of the value where the defect is, in the format `projects[2].panes[0].title`: object keys joined by
    /// ".", array indices as "[n]"; "" for the root. For `duplicateKey`: the path of the object holding the key
    /// twice. For `tooDeep`: the path of the value that goes one level too deep.
    package let path: String

    /// One sentence, such as `duplicate key "name" in projects[2] (line 40, column 9)`; a very long path or key
    /// is shortened to its first and last 60 characters.
    package var description: String { "\(problem) (line \(line), column \(column))" }

    /// What is wrong and in which value, without the line and column: `duplicate key "name" in projects[2]`, for a
    /// message that names the place its own way.
    package var problem: String {
        let inPath = path.isEmpty ? "" : " in \(Self.abbreviated(path))"
        switch kind {
        case .invalidUTF8:
            return "invalid UTF-8 at byte \(Self.grouped(byteOffset))\(inPath)"
        case .tooDeep(let limit):
            return "JSON nested deeper than \(limit) levels at \(shownPath)"
        case .duplicateKey(let key):
            return "duplicate key \(Self.abbreviated(JSONText.quoted(key))) in \(shownPath)"
        case .syntax(let message):
            return "\(message)\(inPath)"
        }
    }

    /// The path for a sentence: shortened when very long, "the root" when empty.
    private var shownPath: String { path.isEmpty ? "the root" : Self.abbreviated(path) }

    /// `text` itself, or its first and last 60 characters around "..." when it is longer than 125 characters.
    static func abbreviated(_ text: String) -> String {
        guard text.count > 125 else { return text }
        return text.prefix(60) + "..." + text.suffix(60)
    }

    /// `number` with a comma between groups of three digits: 1,234,567.
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number.magnitude))
        var text = number < 0 ? "-" : ""
        for (position, digit) in digits.enumerated() {
            if position > 0 && (digits.count - position) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return text
    }
}

/// A single-pass check of JSON bytes that names what `JSONDecoder` would reject (or silently accept, such as a
/// duplicate key or a broken string nothing reads) with its byte offset, line, column and path.
///
/// It keeps an explicit stack, so any nesting depth is safe, and allocates nothing per key or value on the
/// common path: keys are compared as hashed byte ranges, and strings are built only for a report.
package enum JSONDefectScanner {
    /// The first defect in `data` in document order, or nil when the bytes are one well-formed JSON value (RFC
    /// 8259; leading/trailing whitespace allowed; a UTF-8 BOM at the start allowed, since JSONDecoder accepts it)
    /// with unique keys in every object and nesting no deeper than `depthLimit`.
    ///
    /// Like JSONDecoder, it accepts one trailing comma before `]` or `}`.
    package static func firstDefect(in data: Data, depthLimit: Int = 512) -> JSONDefect? {
        scan(data, depthLimit: depthLimit, collectingDuplicates: false, checkingValues: true).defect
    }

    /// Every object that holds a key twice, as (path of the object, the key), in document order, for well-formed
    /// input. A key held three times is listed once.
    ///
    /// By default it is lean, for the load path, where JSONDecoder checks the bytes right after: it checks keys
    /// and structure (brackets, commas, colons, nesting depth) only. Value strings are skipped to their closing
    /// quote, unchecked (an escape is skipped by the byte after its backslash); numbers and `true`, `false` and
    /// `null` are skipped to the next `,`, `]`, `}` or whitespace. On anything malformed that it notices it stops
    /// and returns the duplicates found so far, and `firstDefect(in:)` names the defect. On well-formed input
    /// its result is the one with `checkingValues`.
    ///
    /// With `checkingValues`, every value is checked as `firstDefect(in:)` checks it, and the listing stops at
    /// the first defect that is not a duplicate key.
    package static func duplicateKeys(
        in data: Data, depthLimit: Int = 512, checkingValues: Bool = false
    ) -> [(path: String, key: String)] {
        scan(data, depthLimit: depthLimit, collectingDuplicates: true, checkingValues: checkingValues).duplicates
    }

    /// Runs the scanner over `data`: it stops at the first defect, or (when `collectingDuplicates`) at the first
    /// defect that is not a duplicate key, listing the duplicates. Without `checkingValues`, values are skipped
    /// rather than checked (see `duplicateKeys(in:depthLimit:checkingValues:)`).
    private static func scan(
        _ data: Data, depthLimit: Int, collectingDuplicates: Bool, checkingValues: Bool
    ) -> (defect: JSONDefect?, duplicates: [(path: String, key: String)]) {
        guard !data.isEmpty else {
            let defect = JSONDefect(kind: .syntax("the file is empty"), byteOffset: 0, line: 1, column: 1, path: "")
            return (defect, [])
        }
        return data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> (JSONDefect?, [(path: String, key: String)]) in
            let bytes = raw.bindMemory(to: UInt8.self)
            var scanner = ScanState(
                base: bytes.baseAddress!, count: bytes.count, depthLimit: depthLimit,
                collectingDuplicates: collectingDuplicates, checkingValues: checkingValues)
            do throws(Stop) {
                try scanner.run()
                return (nil, scanner.duplicates)
            } catch {
                // A lean scan (duplicateKeys only) reports no defect.
                guard checkingValues else { return (nil, scanner.duplicates) }
                let (line, column) = location(of: error.offset, in: bytes)
                let defect = JSONDefect(
                    kind: error.kind, byteOffset: error.offset, line: line, column: column, path: error.path)
                return (defect, scanner.duplicates)
            }
        }
    }

    /// The 1-based line and byte column of `offset`.
    private static func location(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        for index in 0..<min(offset, bytes.count) where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        return (line, offset - lineStart + 1)
    }

    /// `value` in upper-case hexadecimal, zero-padded to `digits`.
    static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

/// Why a scan stopped: the defect's kind, offset and path (line and column are worked out afterwards).
private struct Stop: Error {
    /// What is wrong.
    let kind: JSONDefect.Kind
    /// The 0-based byte offset.
    let offset: Int
    /// The path, as `JSONDefect.path`.
    let path: String
}

/// A byte, as ASCII, for the switch statements below.
private enum ASCII {
    /// A double quote, which opens and closes strings.
    static let quote = UInt8(ascii: "\"")
    /// A backslash, which starts an escape.
    static let backslash = UInt8(ascii: "\\")
    /// A slash, which may be escaped.
    static let slash = UInt8(ascii: "/")
    /// A comma, between elements and members.
    static let comma = UInt8(ascii: ",")
    /// A colon, between a key and its value.
    static let colon = UInt8(ascii: ":")
    /// The start of an object.
    static let openBrace = UInt8(ascii: "{")
    /// The end of an object.
    static let closeBrace = UInt8(ascii: "}")
    /// The start of an array.
    static let openBracket = UInt8(ascii: "[")
    /// The end of an array.
    static let closeBracket = UInt8(ascii: "]")
    /// A minus sign, before a number or its exponent.
    static let minus = UInt8(ascii: "-")
    /// A plus sign, before an exponent.
    static let plus = UInt8(ascii: "+")
    /// A decimal point.
    static let dot = UInt8(ascii: ".")
    /// The digit 0.
    static let zero = UInt8(ascii: "0")
    /// The digit 9.
    static let nine = UInt8(ascii: "9")
    /// A lower-case exponent mark.
    static let lowerE = UInt8(ascii: "e")
    /// An upper-case exponent mark.
    static let upperE = UInt8(ascii: "E")
    /// The `u` of a `\u` escape.
    static let lowerU = UInt8(ascii: "u")
}

/// The scanner's state: the bytes, the stack of open arrays and objects, and the keys of the open objects.
private struct ScanState {
    /// One open array or object.
    struct Frame {
        /// An object, else an array.
        var isObject: Bool
        /// For an array, the index of the current element; for an object, how many keys it has had so far.
        var index = 0
        /// For an object, the byte range of the current key's text (between its quotes).
        var keyStart = 0
        /// The end of the current key's text (its closing quote).
        var keyEnd = 0
        /// Whether the current key's text holds a backslash escape.
        var keyEscaped = false
        /// Where this object's keys begin in `ScanState.keys`.
        var keysBase = 0
        /// Where this object's unescaped keys begin in `ScanState.scratch`.
        var scratchBase = 0
        /// This object's entry in `ScanState.tables`, or -1 while it needs none.
        var table = -1
    }

    /// One key of an open object: its hash and where its (unescaped) bytes are.
    struct Key {
        /// `ScanState.hash` of the unescaped bytes.
        var hash: UInt64
        /// Offset of the bytes in the input, or in `scratch` when `inScratch`.
        var start: Int
        /// Number of bytes.
        var count: Int
        /// Whether the bytes are in `scratch` (the key had escapes).
        var inScratch: Bool
        /// Whether this key has already been reported as duplicated.
        var reported = false
    }

    /// The lookup for an object with many keys, or with a non-ASCII key (compared as Swift strings, which are
    /// equal when canonically equivalent, as JSONDecoder compares them).
    struct Table {
        /// Hashes of the object's keys, while `strings` is nil.
        var hashes: Set<UInt64> = []
        /// The object's keys as strings, once it has a non-ASCII key.
        var strings: Set<String>?
        /// Keys already reported as duplicated, once `strings` is in use.
        var reported: Set<String> = []
    }

    /// The input.
    let base: UnsafePointer<UInt8>
    /// The input's length.
    let end: Int
    /// The deepest nesting allowed.
    let depthLimit: Int
    /// Whether a duplicate key is listed and the scan goes on, rather than stopping the scan.
    let collectingDuplicates: Bool
    /// Whether values are checked (strings, numbers, literals), rather than skipped unchecked.
    let checkingValues: Bool
    /// The open arrays and objects, outermost first.
    var frames: [Frame] = []
    /// The keys of every open object, the innermost object's last.
    var keys: [Key] = []
    /// Unescaped bytes of keys that had escapes, the innermost object's last.
    var scratch: [UInt8] = []
    /// Lookups of open objects with many or non-ASCII keys.
    var tables: [Table] = []
    /// The duplicate keys found so far, with the paths of their objects.
    var duplicates: [(path: String, key: String)] = []

    /// How many keys an object may have before its keys are looked up in a hash set.
    static let linearKeys = 16

    /// A scanner over the `count` bytes at `base`.
    init(base: UnsafePointer<UInt8>, count: Int, depthLimit: Int, collectingDuplicates: Bool, checkingValues: Bool) {
        self.base = base
        end = count
        self.depthLimit = depthLimit
        self.collectingDuplicates = collectingDuplicates
        self.checkingValues = checkingValues
        frames.reserveCapacity(64)
        keys.reserveCapacity(256)
    }

    // MARK: The document

    /// Scans the whole input.
    mutating func run() throws(Stop) {
        var index = 0
        if end >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF {
            index = 3
        } else if let encoding = Self.otherEncoding(base, end) {
            throw Stop(kind: .syntax("\(encoding) text; a state file must be UTF-8"), offset: 0, path: "")
        }
        let contentStart = index
        index = skipWhitespace(index)
        if index == end {
            let message = contentStart == end ? "the file is empty" : "the file holds only whitespace"
            throw Stop(kind: .syntax(message), offset: index, path: "")
        }
        index = try scanValue(from: index)
        index = skipWhitespace(index)
        if index < end {
            throw unexpected(at: index, "text after the JSON value", path: "")
        }
    }

    /// The encoding JSONDecoder would read the bytes in instead of UTF-8 (from their first four), if any.
    static func otherEncoding(_ base: UnsafePointer<UInt8>, _ end: Int) -> String? {
        // Mirrors JSONDecoder's detection; 0 stands for a byte that is absent as well as a NUL, so the
        // "non-zero" conditions below are exactly its `.some(nz) where nz != 0`.
        let b0 = end > 0 ? base[0] : 0
        let b1 = end > 1 ? base[1] : 0
        let b2 = end > 2 ? base[2] : 0
        let b3 = end > 3 ? base[3] : 0
        switch (b0, b1, b2, b3) {
        case (0, 0, 0xFE, 0xFF) where end >= 4: return "UTF-32 (big-endian)"
        case (0xFE, 0xFF, 0, 0) where end >= 4: return "UTF-32 (little-endian)"
        case (0xFE, 0xFF, _, _) where end >= 2: return "UTF-16 (big-endian)"
        case (0xFF, 0xFE, _, _) where end >= 2: return "UTF-16 (little-endian)"
        default: break
        }
        if end >= 4 {
            if b0 == 0 && b1 == 0 && b2 == 0 && b3 != 0 { return "UTF-32 (big-endian)" }
            if b0 == 0 && b1 != 0 && b2 == 0 && b3 != 0 { return "UTF-16 (big-endian)" }
            if b0 != 0 && b1 == 0 && b2 == 0 && b3 == 0 { return "UTF-32 (little-endian)" }
            if b0 != 0 && b1 == 0 && b2 != 0 && b3 == 0 { return "UTF-16 (little-endian)" }
        } else if end == 2 {
            if b0 == 0 && b1 != 0 { return "UTF-16 (big-endian)" }
            if b0 != 0 && b1 == 0 { return "UTF-16 (little-endian)" }
        }
        return nil
    }

    /// Scans one value starting at `start` (not whitespace), with everything nested in it; returns the offset
    /// after it.
    mutating func scanValue(from start: Int) throws(Stop) -> Int {
        let rootDepth = frames.count
        var index = start
        nextValue: while true {
            // A value starts at `index`.
            guard index < end else { throw endOfFile(path: valuePath()) }
            switch base[index] {
            case ASCII.quote:
                index = checkingValues ? try scanString(from: index, isKey: false) : try skipString(from: index)
            case ASCII.openBrace:
                try checkDepth(at: index)
                frames.append(Frame(isObject: true, keysBase: keys.count, scratchBase: scratch.count))
                index = skipWhitespace(index + 1)
                guard index < end else { throw endOfFile(path: containerPath()) }
                if base[index] == ASCII.closeBrace {
                    closeObject()
                    index += 1
                } else {
                    index = try scanKey(from: index)
                    continue nextValue
                }
            case ASCII.openBracket:
                try checkDepth(at: index)
                frames.append(Frame(isObject: false))
                index = skipWhitespace(index + 1)
                guard index < end else { throw endOfFile(path: containerPath()) }
                if base[index] == ASCII.closeBracket {
                    frames.removeLast()
                    index += 1
                } else {
                    continue nextValue
                }
            case ASCII.minus, ASCII.zero...ASCII.nine:
                index = checkingValues ? try scanNumber(from: index) : skipScalar(from: index)
            case UInt8(ascii: "t"):
                index = checkingValues ? try scanLiteral("true", from: index) : skipScalar(from: index)
            case UInt8(ascii: "f"):
                index = checkingValues ? try scanLiteral("false", from: index) : skipScalar(from: index)
            case UInt8(ascii: "n"):
                index = checkingValues ? try scanLiteral("null", from: index) : skipScalar(from: index)
            default:
                throw unexpected(at: index, "unexpected \(describeCharacter(at: index))", path: valuePath())
            }
            // A value ended at `index`: close what it ends, until a value must follow.
            while true {
                if frames.count == rootDepth { return index }
                index = skipWhitespace(index)
                guard index < end else { throw endOfFile(path: containerPath()) }
                let byte = base[index]
                let top = frames.count - 1
                if frames[top].isObject {
                    if byte == ASCII.comma {
                        index = skipWhitespace(index + 1)
                        guard index < end else { throw endOfFile(path: containerPath()) }
                        if base[index] == ASCII.closeBrace {  // a trailing comma, as JSONDecoder allows
                            closeObject()
                            index += 1
                            continue
                        }
                        index = try scanKey(from: index)
                        continue nextValue
                    } else if byte == ASCII.closeBrace {
                        closeObject()
                        index += 1
                    } else {
                        throw unexpected(
                            at: index, "expected ',' or '}' after an object member", path: containerPath())
                    }
                } else {
                    if byte == ASCII.comma {
                        index = skipWhitespace(index + 1)
                        guard index < end else { throw endOfFile(path: containerPath()) }
                        if base[index] == ASCII.closeBracket {  // a trailing comma, as JSONDecoder allows
                            frames.removeLast()
                            index += 1
                            continue
                        }
                        frames[top].index += 1
                        continue nextValue
                    } else if byte == ASCII.closeBracket {
                        frames.removeLast()
                        index += 1
                    } else {
                        throw unexpected(
                            at: index, "expected ',' or ']' after an array element", path: containerPath())
                    }
                }
            }
        }
    }

    /// Stops when an array or object opening at `index` would nest deeper than the limit.
    @inline(__always)
    func checkDepth(at index: Int) throws(Stop) {
        if frames.count >= depthLimit {
            throw Stop(kind: .tooDeep(limit: depthLimit), offset: index, path: valuePath())
        }
    }

    /// Drops the innermost frame, an object, with its keys.
    @inline(__always)
    mutating func closeObject() {
        let frame = frames.removeLast()
        if keys.count > frame.keysBase { keys.removeSubrange(frame.keysBase...) }
        if scratch.count > frame.scratchBase { scratch.removeSubrange(frame.scratchBase...) }
        if frame.table >= 0 { tables.removeLast() }
    }

    /// The offset of the first byte at or after `index` that is not JSON whitespace.
    @inline(__always)
    func skipWhitespace(_ index: Int) -> Int {
        var index = index
        while index < end {
            let byte = base[index]
            // Space, tab, LF, CR.
            guard byte <= 0x20, (UInt64(1) << byte) & 0x1_0000_2600 != 0 else { break }
            index += 1
        }
        return index
    }

    // MARK: Scalars

    /// Scans `literal` (true, false or null) at `start`.
    func scanLiteral(_ literal: StaticString, from start: Int) throws(Stop) -> Int {
        let count = literal.utf8CodeUnitCount
        for offset in 0..<count {
            let index = start + offset
            guard index < end else { throw endOfFile(path: valuePath()) }
            if base[index] != literal.utf8Start[offset] {
                throw unexpected(
                    at: index, "unexpected \(describeCharacter(at: index)) in \(literal)", path: valuePath())
            }
        }
        return start + count
    }

    /// Scans a number at `start` (a minus sign or a digit) by RFC 8259's grammar.
    func scanNumber(from start: Int) throws(Stop) -> Int {
        var index = start
        if base[index] == ASCII.minus {
            index += 1
            guard index < end else { throw endOfFile(path: valuePath()) }
            guard isDigit(base[index]) else {
                throw unexpected(at: index, "a number needs a digit after '-'", path: valuePath())
            }
        }
        if base[index] == ASCII.zero {
            index += 1
            if index < end && isDigit(base[index]) {
                throw Stop(
                    kind: .syntax("a number such as 01, with a leading zero, is not valid JSON"), offset: index,
                    path: valuePath())
            }
        } else {
            index = skipDigits(index)
        }
        if index < end && base[index] == ASCII.dot {
            index += 1
            guard index < end else { throw endOfFile(path: valuePath()) }
            guard isDigit(base[index]) else {
                throw unexpected(
                    at: index, "a number needs a digit after its '.' (such as 1.0, not 1.)", path: valuePath())
            }
            index = skipDigits(index)
        }
        if index < end && (base[index] == ASCII.lowerE || base[index] == ASCII.upperE) {
            index += 1
            if index < end && (base[index] == ASCII.plus || base[index] == ASCII.minus) { index += 1 }
            guard index < end else { throw endOfFile(path: valuePath()) }
            guard isDigit(base[index]) else {
                throw unexpected(
                    at: index, "a number needs a digit in its exponent (such as 1e5, not 1e)", path: valuePath())
            }
            index = skipDigits(index)
        }
        return index
    }

    /// The offset of the first `,`, `]`, `}` or whitespace byte after `start` (or the end): a number or literal
    /// skipped unchecked.
    @inline(__always)
    func skipScalar(from start: Int) -> Int {
        var index = start + 1
        while index < end {
            let byte = base[index]
            // Space, tab, LF, CR, ',' below 64; ']' and '}' from 64 to 127.
            if byte < 64 {
                if (UInt64(1) << byte) & 0x0000_1001_0000_2600 != 0 { break }
            } else if byte < 128 && (UInt64(1) << (byte &- 64)) & 0x2000_0000_2000_0000 != 0 {
                break
            }
            index += 1
        }
        return index
    }

    /// Whether `byte` is an ASCII digit.
    @inline(__always)
    func isDigit(_ byte: UInt8) -> Bool { byte &- ASCII.zero < 10 }

    /// The offset of the first non-digit at or after `index`.
    @inline(__always)
    func skipDigits(_ index: Int) -> Int {
        var index = index
        while index < end && isDigit(base[index]) { index += 1 }
        return index
    }

    // MARK: Strings

    /// What scanning a string found out about it.
    struct StringTraits {
        /// It holds a backslash escape.
        var escaped = false
        /// It holds a byte or an escape outside ASCII.
        var nonASCII = false
    }

    /// Scans the string whose opening quote is at `start`; returns the offset after its closing quote.
    @inline(__always)
    func scanString(from start: Int, isKey: Bool) throws(Stop) -> Int {
        var traits = StringTraits()
        return try scanString(from: start, isKey: isKey, traits: &traits)
    }

    /// Scans the string whose opening quote is at `start`, noting its traits; returns the offset after its
    /// closing quote.
    func scanString(from start: Int, isKey: Bool, traits: inout StringTraits) throws(Stop) -> Int {
        var index = start + 1
        while true {
            // Eight bytes at a time while none is a quote, a backslash, a control character or non-ASCII.
            while index &+ 8 <= end {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                let special = Self.specialBytes(word)
                if special != 0 {
                    index += special.trailingZeroBitCount >> 3
                    break
                }
                index += 8
            }
            guard index < end else { throw endOfFile(path: stringPath(isKey)) }
            let byte = base[index]
            if byte == ASCII.quote { return index + 1 }
            if byte == ASCII.backslash {
                traits.escaped = true
                index = try scanEscape(at: index, isKey: isKey, traits: &traits)
            } else if byte < 0x20 {
                throw Stop(
                    kind: .syntax("control character U+\(JSONDefectScanner.hex(UInt32(byte), digits: 4)) in a string"),
                    offset: index, path: stringPath(isKey))
            } else if byte >= 0x80 {
                let length = utf8Length(at: index)
                if length == 0 { throw Stop(kind: .invalidUTF8, offset: index, path: stringPath(isKey)) }
                traits.nonASCII = true
                index += length
            } else {
                index += 1
            }
        }
    }

    /// The offset after the closing quote of the string whose opening quote is at `start` when its text is
    /// printable ASCII without escapes (as most keys are: valid, with the traits of `StringTraits()`), else nil.
    @inline(__always)
    func plainStringEnd(from start: Int) -> Int? {
        var index = start + 1
        while index &+ 8 <= end {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            let special = Self.specialBytes(word)
            if special != 0 {
                index += special.trailingZeroBitCount >> 3
                return base[index] == ASCII.quote ? index + 1 : nil
            }
            index += 8
        }
        while index < end {
            let byte = base[index]
            if byte == ASCII.quote { return index + 1 }
            if byte < 0x20 || byte >= 0x80 || byte == ASCII.backslash { return nil }
            index += 1
        }
        return nil
    }

    /// Skips the value string whose opening quote is at `start`, unchecked: it looks for the closing quote only,
    /// and skips the byte after each backslash; returns the offset after the closing quote.
    @inline(__always)
    func skipString(from start: Int) throws(Stop) -> Int {
        var index = start + 1
        while true {
            // Eight bytes at a time while none is a quote or a backslash.
            while index &+ 8 <= end {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                let special = Self.quotesAndBackslashes(word)
                if special != 0 {
                    index += special.trailingZeroBitCount >> 3
                    break
                }
                index += 8
            }
            guard index < end else { throw endOfFile(path: "") }
            let byte = base[index]
            if byte == ASCII.quote { return index + 1 }
            index += byte == ASCII.backslash ? 2 : 1
        }
    }

    /// A mask with the top bit set in (at least) the first byte of `word` (in memory order) that is a quote or a
    /// backslash, and zero when there is none.
    @inline(__always)
    static func quotesAndBackslashes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        return ((quotes &- ones) & ~quotes | (backslashes &- ones) & ~backslashes) & 0x8080_8080_8080_8080
    }

    /// A mask with the top bit set in (at least) the first byte of `word` (in memory order) that is a quote, a
    /// backslash, a control character or non-ASCII, and zero when there is none.
    @inline(__always)
    static func specialBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        let hasQuote = (quotes &- ones) & ~quotes
        let hasBackslash = (backslashes &- ones) & ~backslashes
        let hasControl = (word &- ones &* 0x20) & ~word
        return (hasQuote | hasBackslash | hasControl | word) & highs
    }

    /// Checks the escape whose backslash is at `start`; returns the offset after it.
    func scanEscape(at start: Int, isKey: Bool, traits: inout StringTraits) throws(Stop) -> Int {
        guard start + 1 < end else { throw endOfFile(path: stringPath(isKey)) }
        switch base[start + 1] {
        case ASCII.quote, ASCII.backslash, ASCII.slash, UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
            UInt8(ascii: "r"), UInt8(ascii: "t"):
            return start + 2
        case ASCII.lowerU:
            let unit = try hexEscape(at: start, isKey: isKey)
            if unit >= 0x80 { traits.nonASCII = true }
            if unit & 0xFC00 == 0xDC00 {
                throw unpairedSurrogate(at: start, isKey: isKey)
            }
            if unit & 0xFC00 == 0xD800 {
                // A high surrogate must be followed by an escaped low one.
                let next = start + 6
                guard next < end else { throw endOfFile(path: stringPath(isKey)) }
                guard base[next] == ASCII.backslash else { throw unpairedSurrogate(at: start, isKey: isKey) }
                guard next + 1 < end else { throw endOfFile(path: stringPath(isKey)) }
                guard base[next + 1] == ASCII.lowerU, try hexEscape(at: next, isKey: isKey) & 0xFC00 == 0xDC00 else {
                    throw unpairedSurrogate(at: start, isKey: isKey)
                }
                return next + 6
            }
            return start + 6
        default:
            let text = describeCharacter(at: start + 1, quoted: false)
            throw unexpected(at: start + 1, "invalid escape \\\(text)", path: stringPath(isKey), reportAt: start)
        }
    }

    /// The code unit of the `\uXXXX` escape whose backslash is at `start`.
    func hexEscape(at start: Int, isKey: Bool) throws(Stop) -> UInt32 {
        var unit: UInt32 = 0
        for index in start + 2..<start + 6 {
            guard index < end else { throw endOfFile(path: stringPath(isKey)) }
            let byte = base[index]
            let digit: UInt8
            switch byte {
            case ASCII.zero...ASCII.nine: digit = byte - ASCII.zero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default:
                if byte >= 0x80 && utf8Length(at: index) == 0 {
                    throw Stop(kind: .invalidUTF8, offset: index, path: stringPath(isKey))
                }
                let shown = String(
                    decoding: UnsafeBufferPointer(start: base + start, count: index - start), as: UTF8.self)
                throw Stop(
                    kind: .syntax(
                        "invalid escape \(shown)\(describeCharacter(at: index, quoted: false)): "
                            + "\\u needs four hexadecimal digits"),
                    offset: start, path: stringPath(isKey))
            }
            unit = unit << 4 | UInt32(digit)
        }
        return unit
    }

    /// The defect for the unpaired surrogate escape at `start`.
    func unpairedSurrogate(at start: Int, isKey: Bool) -> Stop {
        let shown = String(decoding: UnsafeBufferPointer(start: base + start, count: 6), as: UTF8.self)
        return Stop(
            kind: .syntax("unpaired UTF-16 surrogate \(shown) in a string"), offset: start, path: stringPath(isKey))
    }

    /// The length of the valid UTF-8 sequence starting with the non-ASCII byte at `index`, or 0 when it is
    /// not one (``UTF8Sequence/length(at:in:count:)``).
    @inline(__always)
    func utf8Length(at index: Int) -> Int {
        UTF8Sequence.length(at: index, in: base, count: end)
    }

    // MARK: Keys

    /// Scans the key at `start` of the innermost object (which must be a string), checks it against the object's
    /// other keys, and the colon after it; returns the offset of the member's value (after whitespace).
    mutating func scanKey(from start: Int) throws(Stop) -> Int {
        let top = frames.count - 1
        guard base[start] == ASCII.quote else {
            throw unexpected(at: start, "expected an object key in double quotes", path: containerPath())
        }
        var traits = StringTraits()
        let afterKey: Int
        if let plainEnd = plainStringEnd(from: start) {
            afterKey = plainEnd
        } else {
            afterKey = try scanString(from: start, isKey: true, traits: &traits)
        }
        frames[top].keyStart = start + 1
        frames[top].keyEnd = afterKey - 1
        frames[top].keyEscaped = traits.escaped
        frames[top].index += 1
        try checkUnique(keyAt: start, top: top, traits: traits)
        var index = skipWhitespace(afterKey)
        guard index < end else { throw endOfFile(path: containerPath()) }
        guard base[index] == ASCII.colon else {
            throw unexpected(at: index, "expected ':' after an object key", path: containerPath())
        }
        index = skipWhitespace(index + 1)
        return index
    }

    /// Records the current key of `frames[top]`, whose quote is at `quote`, and reports it if the object had it
    /// already.
    @inline(__always)
    mutating func checkUnique(keyAt quote: Int, top: Int, traits: StringTraits) throws(Stop) {
        let frame = frames[top]
        if frame.table >= 0 && tables[frame.table].strings != nil || traits.nonASCII {
            try checkUniqueAsString(keyAt: quote, top: top)
            return
        }
        var key: Key
        if traits.escaped {
            let scratchStart = scratch.count
            appendUnescaped(frame.keyStart..<frame.keyEnd, to: &scratch)
            let count = scratch.count - scratchStart
            let hash = scratch.withUnsafeBufferPointer { Self.hash($0.baseAddress! + scratchStart, count) }
            key = Key(hash: hash, start: scratchStart, count: count, inScratch: true)
        } else {
            let count = frame.keyEnd - frame.keyStart
            key = Key(
                hash: Self.hash(base + frame.keyStart, count), start: frame.keyStart, count: count, inScratch: false)
        }
        let keysInObject = keys.count - frame.keysBase
        var mayRepeat = true
        if frame.table >= 0 {
            mayRepeat = !tables[frame.table].hashes.insert(key.hash).inserted
        } else if keysInObject >= Self.linearKeys {
            var table = Table()
            table.hashes.reserveCapacity(keysInObject * 4)
            for earlier in keys[frame.keysBase...] { table.hashes.insert(earlier.hash) }
            mayRepeat = !table.hashes.insert(key.hash).inserted
            tables.append(table)
            frames[top].table = tables.count - 1
        }
        if mayRepeat {
            var position = frame.keysBase
            while position < keys.count {
                if keys[position].hash == key.hash && sameBytes(keys[position], key) {
                    let firstRepeat = !keys[position].reported
                    keys[position].reported = true
                    let repeated = firstRepeat ? text(of: key) : ""
                    if key.inScratch { scratch.removeSubrange(key.start...) }
                    if firstRepeat { try duplicate(keyAt: quote, top: top, text: repeated) }
                    return
                }
                position += 1
            }
        }
        keys.append(key)
    }

    /// `checkUnique` for an object with a non-ASCII key: its keys are compared as Swift strings.
    mutating func checkUniqueAsString(keyAt quote: Int, top: Int) throws(Stop) {
        let frame = frames[top]
        if frame.table < 0 || tables[frame.table].strings == nil {
            var strings = Set<String>()
            for earlier in keys[frame.keysBase...] { strings.insert(text(of: earlier)) }
            if frame.table < 0 {
                tables.append(Table())
                frames[top].table = tables.count - 1
            }
            tables[frames[top].table].strings = strings
            // Keys already reported stay reported.
            for earlier in keys[frame.keysBase...] where earlier.reported {
                tables[frames[top].table].reported.insert(text(of: earlier))
            }
        }
        let table = frames[top].table
        let key = keyText(frames[top].keyStart..<frames[top].keyEnd, escaped: frames[top].keyEscaped)
        if tables[table].strings!.insert(key).inserted { return }
        if tables[table].reported.insert(key).inserted {
            try duplicate(keyAt: quote, top: top, text: key)
        }
    }

    /// Lists, or stops at, the duplicate key `text` whose quote is at `quote` in `frames[top]`.
    mutating func duplicate(keyAt quote: Int, top: Int, text: String) throws(Stop) {
        let path = containerPath()
        if collectingDuplicates {
            duplicates.append((path: path, key: text))
        } else {
            throw Stop(kind: .duplicateKey(text), offset: quote, path: path)
        }
    }

    /// Whether two keys have the same bytes.
    func sameBytes(_ first: Key, _ second: Key) -> Bool {
        guard first.count == second.count else { return false }
        return scratch.withUnsafeBufferPointer { scratch in
            let one = first.inScratch ? scratch.baseAddress! + first.start : base + first.start
            let other = second.inScratch ? scratch.baseAddress! + second.start : base + second.start
            return memcmp(one, other, first.count) == 0
        }
    }

    /// A key's text.
    func text(of key: Key) -> String {
        if key.inScratch {
            return String(decoding: scratch[key.start..<key.start + key.count], as: UTF8.self)
        }
        return String(decoding: UnsafeBufferPointer(start: base + key.start, count: key.count), as: UTF8.self)
    }

    /// The text of the (already checked) key whose bytes between the quotes are `range`.
    func keyText(_ range: Range<Int>, escaped: Bool) -> String {
        if !escaped {
            return String(
                decoding: UnsafeBufferPointer(start: base + range.lowerBound, count: range.count), as: UTF8.self)
        }
        var bytes: [UInt8] = []
        appendUnescaped(range, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the bytes of the (already checked) string text `range` to `output`, escapes resolved.
    func appendUnescaped(_ range: Range<Int>, to output: inout [UInt8]) {
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = base[index]
            guard byte == ASCII.backslash else {
                output.append(byte)
                index += 1
                continue
            }
            let escaped = base[index + 1]
            index += 2
            switch escaped {
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case ASCII.lowerU:
                var scalar = hexValue(at: index)
                index += 4
                if scalar & 0xFC00 == 0xD800 {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (hexValue(at: index + 2) - 0xDC00)
                    index += 6
                }
                output.append(contentsOf: Unicode.UTF8.encode(Unicode.Scalar(scalar)!)!)
            default: output.append(escaped)  // " \ /
            }
        }
    }

    /// The value of the four (already checked) hexadecimal digits at `index`.
    func hexValue(at index: Int) -> UInt32 {
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = base[index + offset]
            let digit = byte <= ASCII.nine ? byte - ASCII.zero : (byte | 0x20) - UInt8(ascii: "a") + 10
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// A hash of `count` bytes at `start`, seeded with the count, read eight or four bytes at a time (the last
    /// read overlapping the one before); only compared within one scan, so any function of the bytes does.
    @inline(__always)
    static func hash(_ start: UnsafePointer<UInt8>, _ count: Int) -> UInt64 {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        let raw = UnsafeRawPointer(start)
        var hash = 0xCBF2_9CE4_8422_2325 ^ UInt64(truncatingIfNeeded: count)
        var tail: UInt64
        if count >= 8 {
            var offset = 0
            while offset &+ 8 < count {
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* multiplier
                hash ^= hash >> 29
                offset &+= 8
            }
            tail = raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        } else if count >= 4 {
            tail =
                UInt64(raw.loadUnaligned(as: UInt32.self))
                | UInt64(raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)) << 32
        } else if count > 0 {
            tail = UInt64(start[0]) | UInt64(start[count >> 1]) << 8 | UInt64(start[count &- 1]) << 16
        } else {
            tail = 0
        }
        hash = (hash ^ tail) &* multiplier
        return hash ^ hash >> 32
    }

    // MARK: Reports

    /// The path of the innermost open array or object ("" for the root, or before anything is open).
    func containerPath() -> String { path(members: max(0, frames.count - 1)) }

    /// The path of the value being scanned: the innermost container's current member.
    func valuePath() -> String { path(members: frames.count) }

    /// The path for a defect in a string: the value's, or the object's for a key.
    func stringPath(_ isKey: Bool) -> String { isKey ? containerPath() : valuePath() }

    /// The path made of the current members of the outermost `members` frames.
    func path(members: Int) -> String {
        var path = ""
        for frame in frames[..<members] {
            if frame.isObject {
                if !path.isEmpty { path += "." }
                path += keyText(frame.keyStart..<frame.keyEnd, escaped: frame.keyEscaped)
            } else {
                path += "[\(frame.index)]"
            }
        }
        return path
    }

    /// The defect for the end of the input where more was needed.
    func endOfFile(path: String) -> Stop {
        Stop(kind: .syntax("unexpected end of the file"), offset: end, path: path)
    }

    /// The defect for the byte at `index` that does not belong there: invalid UTF-8 if it starts an invalid
    /// sequence, else `message` (reported at `reportAt`, or at `index`).
    func unexpected(at index: Int, _ message: String, path: String, reportAt: Int? = nil) -> Stop {
        if base[index] >= 0x80 && utf8Length(at: index) == 0 {
            return Stop(kind: .invalidUTF8, offset: index, path: path)
        }
        return Stop(kind: .syntax(message), offset: reportAt ?? index, path: path)
    }

    /// The character at `index` for a message: `'x'`, `'é' (U+00E9)`, or `U+0001` for an invisible one.
    func describeCharacter(at index: Int, quoted: Bool = true) -> String {
        let byte = base[index]
        if byte >= 0x21 && byte < 0x7F {
            return quoted ? "character '\(Unicode.Scalar(byte))'" : String(Unicode.Scalar(byte))
        }
        var scalar = Unicode.Scalar(byte)
        let length = byte >= 0x80 ? utf8Length(at: index) : 1
        if length > 1 {
            var decoder = UTF8()
            var iterator = UnsafeBufferPointer(start: base + index, count: length).makeIterator()
            if case .scalarValue(let decoded) = decoder.decode(&iterator) { scalar = decoded }
        }
        let code = "U+" + JSONDefectScanner.hex(scalar.value, digits: 4)
        let visible =
            switch scalar.properties.generalCategory {
            case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator, .unassigned,
                .privateUse, .surrogate, .nonspacingMark, .enclosingMark:
                false
            default: true
            }
        if !quoted { return visible ? "\(scalar)" : code }
        return visible ? "character '\(scalar)' (\(code))" : "character \(code)"
    }
}
