import FoundationEssentials
import StateJSON

/// What checking a state file's recorded content checksum against its bytes found (``ContentChecksum``).
public enum ContentChecksumOutcome: Sendable, Equatable, CustomStringConvertible {
    /// The checksum the file records is the one of its content: the file is as its last save wrote it.
    case matches
    /// The file records no checksum as the last member of its root object: a file an older release wrote, one
    /// written down for an older release (``StateFile/writeDown(_:to:)``), or one a tool rewrote with the member
    /// elsewhere. There is nothing to check it against.
    case absent
    /// The file changed since the save that recorded its checksum: it was edited, or replaced by other bytes that
    /// kept the member. `recorded` is the text the member holds (`crc32c:` and eight hexadecimal digits, unless
    /// that was edited too), `computed` the checksum of the content as it is, in the same form.
    case mismatch(recorded: String, computed: String)

    /// `matches`, `absent`, or `mismatch: recorded crc32c:1a2b3c4d, computed crc32c:5e6f7a8b`.
    public var description: String {
        switch self {
        case .matches: "matches"
        case .absent: "absent"
        case .mismatch(let recorded, let computed): "mismatch: recorded \(recorded), computed \(computed)"
        }
    }
}

/// The checksum of its content that every file a ``StateFile`` writes records, so that a load can tell a file
/// that changed outside the store since its last save (a person edited it) from one the store wrote.
///
/// The checksum is the last member of the file's root object, after the model's members and the store's other
/// keys, under ``StateSchema/contentChecksumKey`` (``defaultKey`` unless the schema names another):
///
/// ```text
/// {"notes":[…],"revision":12,"version":4,"contentChecksum":"crc32c:1a2b3c4d"}
/// ```
///
/// It is the CRC-32C (Castagnoli) of every byte of the file before the `,` that precedes the member, written as
/// `crc32c:` and eight lowercase hexadecimal digits. A reader finds it by scanning back from the end of the file and
/// hashes the bytes before it; a file without it (``ContentChecksumOutcome/absent``) loads as before. The member is
/// the store's, like the version: a load never takes it for a field of the model, and a save writes a fresh one.
///
/// A mismatch is news, not damage: the load goes on with the file as it is
/// (``LoadReport/contentChecksum``). The checksum covers the JSON: a sealed file (``StateFileSealing``) records it
/// inside the sealed bytes, so ``verify(_:key:)`` on the stored bytes of a sealed file finds none.
public enum ContentChecksum {
    /// The root key of the checksum unless the schema names another: `contentChecksum`.
    public static let defaultKey = "contentChecksum"

    /// Checks `bytes`, a state file's JSON as stored, against the checksum they record as their last member.
    ///
    /// ```swift
    /// let bytes = try Data(contentsOf: URL(filePath: "/var/lib/app/state.json"))
    /// if case .mismatch(let recorded, let computed) = ContentChecksum.verify(bytes) {
    ///     logger.warning("state.json changed outside the service: \(recorded) recorded, \(computed) computed")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - bytes: The whole file.
    ///   - key: The checksum's root key (``StateSchema/contentChecksumKey``).
    /// - Returns: ``ContentChecksumOutcome/absent`` when the last member of the root object is not the checksum
    ///   (a file that is not JSON included), otherwise whether it matches the bytes before it.
    public static func verify(_ bytes: some Collection<UInt8>, key: String = defaultKey) -> ContentChecksumOutcome {
        if let outcome = bytes.withContiguousStorageIfAvailable({ verify(UnsafeRawBufferPointer($0), key: key) }) {
            return outcome
        }
        return Array(bytes).withUnsafeBytes { verify($0, key: key) }
    }
}

extension ContentChecksum {
    /// How the value starts: the algorithm's name.
    static let algorithmPrefix = "crc32c:"

    /// The longest value the scan back from the end takes for the checksum's (the real one is 15 bytes).
    static let longestValue = 64

    /// `crc32c:` and `checksum` as eight lowercase hexadecimal digits.
    static func text(_ checksum: UInt32) -> String {
        let hex = String(checksum, radix: 16)
        return algorithmPrefix + String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// What replaces the root object's closing `}` of a file whose content before it has `checksum`: the member,
    /// then the `}`; indented like `JSONEncoder`'s pretty printing when `pretty`.
    static func closing(key: String, checksum: UInt32, pretty: Bool) -> [UInt8] {
        let member = JSONText.quoted(key) + (pretty ? " : " : ":") + "\"" + text(checksum) + "\""
        return Array(((pretty ? ",\n  " : ",") + member + (pretty ? "\n}" : "}")).utf8)
    }

    /// What replaces the last byte of a compact encode, given the bytes before it and that byte, to end it with
    /// the checksum member under `key`: the checksum of those bytes, continuing `checksum` (of the bytes handed on
    /// before them), in a compact member and the root's `}`.
    /// - Throws: When the last byte is not the root object's `}`, or the object is empty.
    static func closingMember(
        key: String, continuing checksum: UInt32 = 0
    ) -> (UnsafeRawBufferPointer, UInt8) throws -> [UInt8] {
        { before, last in
            guard last == UInt8(ascii: "}"), before.last != UInt8(ascii: "{") else { throw ClosingRefused() }
            return closing(key: key, checksum: CRC32C.checksum(before, continuing: checksum), pretty: false)
        }
    }

    /// A document that does not end as a root object with members: the encoder that wrote it gives way to the next.
    struct ClosingRefused: Error, CustomStringConvertible {
        var description: String { "the document does not end with the closing brace of a root object with members" }
    }

    /// Adds the checksum member to `data`, a whole JSON document whose root is an object with at least one member
    /// (as every encode of a state is), before the root's `}`: compact, or after a newline and indented when the
    /// `}` stands on a line of its own. Leaves anything else unchanged and returns `false`.
    @discardableResult
    static func append(to data: inout Data, key: String) -> Bool {
        let found: (contentEnd: Int, checksum: UInt32, pretty: Bool)? = data.withUnsafeBytes { bytes in
            var end = bytes.count
            skipWhitespace(bytes, &end)
            guard end > 0, bytes[end - 1] == UInt8(ascii: "}") else { return nil }
            let brace = end - 1
            end = brace
            skipWhitespace(bytes, &end)
            guard end > 1, bytes[end - 1] != UInt8(ascii: "{") else { return nil }
            let checksum = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<end]))
            return (end, checksum, end < brace)
        }
        guard let found else { return false }
        data.replaceSubrange(
            found.contentEnd..<data.count, with: closing(key: key, checksum: found.checksum, pretty: found.pretty))
        return true
    }

    /// ``verify(_:key:)`` on bytes in memory; with `release`, the bytes hashed are handed to it every
    /// ``PageRelease/interval``, so that a mapped file is not resident all at once (``PageRelease``).
    static func verify(
        _ bytes: UnsafeRawBufferPointer, key: String, release: ((Range<Int>) -> Void)? = nil
    ) -> ContentChecksumOutcome {
        guard let member = member(in: bytes, key: key) else { return .absent }
        var checksum: UInt32 = 0
        var offset = 0
        while offset < member.comma {
            let end = min(offset + PageRelease.interval, member.comma)
            checksum = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), continuing: checksum)
            release?(offset..<end)
            offset = end
        }
        if let recorded = recordedChecksum(member.recorded), recorded == checksum { return .matches }
        return .mismatch(recorded: member.recorded, computed: text(checksum))
    }

    /// The checksum member at the end of `bytes`: where its `,` is and the text its value holds; nil when the root
    /// object's last member is not a string under `key`.
    static func member(in bytes: UnsafeRawBufferPointer, key: String) -> (comma: Int, recorded: String)? {
        var end = bytes.count
        skipWhitespace(bytes, &end)
        guard end > 0, bytes[end - 1] == UInt8(ascii: "}") else { return nil }
        end -= 1
        skipWhitespace(bytes, &end)
        guard end > 0, bytes[end - 1] == UInt8(ascii: "\"") else { return nil }
        end -= 1
        let valueEnd = end
        // The value: no quote, backslash or control character (an escaped quote ends the scan, and the `:` and key
        // that must come before it are then missing).
        while end > 0, valueEnd - end <= longestValue, bytes[end - 1] != UInt8(ascii: "\""),
            bytes[end - 1] != UInt8(ascii: "\\"), bytes[end - 1] >= 0x20
        {
            end -= 1
        }
        guard end > 0, bytes[end - 1] == UInt8(ascii: "\"") else { return nil }
        let recorded = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[end..<valueEnd]), as: UTF8.self)
        end -= 1
        skipWhitespace(bytes, &end)
        guard end > 0, bytes[end - 1] == UInt8(ascii: ":") else { return nil }
        end -= 1
        skipWhitespace(bytes, &end)
        let quoted = Array(JSONText.quoted(key).utf8)
        guard end >= quoted.count,
            quoted.elementsEqual(UnsafeRawBufferPointer(rebasing: bytes[(end - quoted.count)..<end]))
        else { return nil }
        end -= quoted.count
        skipWhitespace(bytes, &end)
        guard end > 0, bytes[end - 1] == UInt8(ascii: ",") else { return nil }
        return (end - 1, recorded)
    }

    /// The checksum in `text` when it reads `crc32c:` and eight hexadecimal digits.
    private static func recordedChecksum(_ text: String) -> UInt32? {
        guard text.hasPrefix(algorithmPrefix) else { return nil }
        let digits = text.dropFirst(algorithmPrefix.count)
        guard digits.count == 8, digits.allSatisfy(\.isHexDigit) else { return nil }
        return UInt32(digits, radix: 16)
    }

    /// Moves `end` back over JSON whitespace.
    private static func skipWhitespace(_ bytes: UnsafeRawBufferPointer, _ end: inout Int) {
        while end > 0, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[end - 1]) { end -= 1 }
    }
}
