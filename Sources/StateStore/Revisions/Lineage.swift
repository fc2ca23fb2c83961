/// The identity of one unbroken history of a state: every revision of a lineage follows from the one before it.
///
/// A state file stores its lineage beside its revision. A load continues the stored lineage only when the file
/// is exactly what the last owner left after a clean stop; whenever the history is broken instead of continued
/// (no file, a quarantined, salvaged or imported file, a file replaced or edited since it was last written, an
/// owner that crashed with changes it may not have saved), the state gets a new lineage. So the pair
/// (lineage, revision) never names two different states: a client that holds one can tell whether the state it
/// read is still the current one, across restarts.
public struct Lineage: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The lineage as stored: 1 to 64 characters from `[0-9A-Za-z_-]`; generated ones are 16 lower-case hex
    /// digits.
    public let rawValue: String

    /// A stored lineage, or `nil` when `rawValue` is empty, longer than 64 characters or holds another character.
    public init?(rawValue: String) {
        guard !rawValue.isEmpty, rawValue.utf8.count <= 64, rawValue.utf8.allSatisfy(Self.isAllowed) else {
            return nil
        }
        self.rawValue = rawValue
    }

    /// A new lineage: 64 random bits as 16 lower-case hex digits.
    public static func random() -> Lineage {
        var generator = SystemRandomNumberGenerator()
        let bits = generator.next() as UInt64
        let hex = String(bits, radix: 16)
        return Lineage(uncheckedRawValue: String(repeating: "0", count: 16 - hex.count) + hex)
    }

    /// The raw value.
    public var description: String { rawValue }

    private init(uncheckedRawValue: String) {
        rawValue = uncheckedRawValue
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }
}
