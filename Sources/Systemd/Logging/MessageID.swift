import CSystemd
import Logging

/// A 128-bit journal `MESSAGE_ID`: identifies one kind of event so operators can `journalctl MESSAGE_ID=…`.
///
/// Written as 32 lower-case hex digits (the form `journalctl --new-id128` prints). Attach one to a log call with
/// the ``MessageID/metadataKey`` metadata key, most easily through `Logger.Metadata.messageID(_:)`
/// (``Swift/Dictionary/messageID(_:)``):
///
/// ```swift
/// logger.notice("workspace created", metadata: .messageID(MessageID("7c7e8f0a5b1d4c2e9f3a6b8d0e1f2a3b")!))
/// ```
public struct MessageID: Sendable, Hashable, CustomStringConvertible {
    /// The metadata key the journal handler turns into the `MESSAGE_ID` field.
    public static let metadataKey = "message-id"

    /// The id as 32 lower-case hex digits.
    public let description: String

    /// Parses 32 hex digits, or a UUID in its dashed 8-4-4-4-12 form; `nil` for anything else.
    public init?(_ text: String) {
        let digits = text.count == 36 ? text.filter { $0 != "-" } : text
        guard text.count == 36 ? Self.isDashedUUID(text) : true else { return nil }
        guard digits.utf8.count == 32, digits.utf8.allSatisfy(Self.isHexDigit) else { return nil }
        description = digits.lowercased()
    }

    /// Creates an id from its 16 bytes.
    public init(
        bytes: (
            UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
            UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
        )
    ) {
        let list = withUnsafeBytes(of: bytes) { Array($0) }
        description = list.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// A new random id (`sd_id128_randomize`), for example to mint ids while writing code.
    public static func random() -> MessageID {
        var id = sd_id128_t()
        if sd_id128_randomize(&id) < 0 {
            var generator = SystemRandomNumberGenerator()
            withUnsafeMutableBytes(of: &id.bytes) { buffer in
                for index in buffer.indices { buffer[index] = generator.next() }
            }
        }
        return MessageID(bytes: id.bytes)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte)
    }

    private static func isDashedUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12]
    }
}

extension Logger.Metadata {
    /// Metadata carrying `id` under ``MessageID/metadataKey``; merge it with other metadata as needed.
    public static func messageID(_ id: MessageID) -> Logger.Metadata {
        [MessageID.metadataKey: .string(id.description)]
    }
}
