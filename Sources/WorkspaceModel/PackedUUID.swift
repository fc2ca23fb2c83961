import FoundationEssentials

/// The 16 bytes of a UUID of RFC 9562's variant (the two top bits of byte 8 are `10`: every UUID this release
/// makes, and those of every common generator), kept so that an enum around it finds room for its case.
///
/// Byte 8's two variant bits are implied and left out: its six other bits are a ``LowBits`` enum of 64 cases,
/// whose byte has two bits Swift may use, and ``WorkspaceID``'s two cases (this, or a reference to an object)
/// put their tag there. An id is then 16 bytes, where a UUID beside an optional reference took 24: 8 bytes less
/// in every project, pane, tab and favorite, and a tab's array of two 16 bytes less (a workspace holds hundreds
/// of thousands of ids).
struct PackedUUID: Sendable {
    /// Bytes 0 to 7, as they are in memory.
    private let head: UInt64
    /// Bytes 9 to 12, as they are in memory.
    private let middle: UInt32
    /// Bytes 13 and 14, as they are in memory.
    private let end: UInt16
    /// Byte 15.
    private let last: UInt8
    /// Byte 8's low six bits; its top two are `10`.
    private let clockSequence: LowBits

    /// The six low bits of a byte: a case for each value, so that the byte's two top bits are free.
    enum LowBits: UInt8, Sendable {
        case b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14, b15
        case b16, b17, b18, b19, b20, b21, b22, b23, b24, b25, b26, b27, b28, b29, b30, b31
        case b32, b33, b34, b35, b36, b37, b38, b39, b40, b41, b42, b43, b44, b45, b46, b47
        case b48, b49, b50, b51, b52, b53, b54, b55, b56, b57, b58, b59, b60, b61, b62, b63
    }

    /// The packed bytes of `uuid`; nil when it is not of RFC 9562's variant.
    init?(_ uuid: UUID) {
        let bytes = uuid.uuid
        guard bytes.8 & 0xC0 == 0x80, let low = LowBits(rawValue: bytes.8 & 0x3F) else { return nil }
        (head, middle, end) = withUnsafeBytes(of: bytes) {
            (
                $0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 9, as: UInt32.self),
                $0.loadUnaligned(fromByteOffset: 13, as: UInt16.self)
            )
        }
        last = bytes.15
        clockSequence = low
    }

    /// The UUID's 16 bytes as one little-endian number (byte 0 its lowest), as ``number(of:)`` makes it.
    var number: UInt128 {
        let high =
            UInt64(0x80 | clockSequence.rawValue) | UInt64(UInt32(littleEndian: middle)) << 8
            | UInt64(UInt16(littleEndian: end)) << 40 | UInt64(last) << 56
        return UInt128(UInt64(littleEndian: head)) | UInt128(high) << 64
    }

    /// The 16 bytes of `uuid` as one little-endian number (byte 0 its lowest).
    static func number(of uuid: UUID) -> UInt128 {
        UInt128(littleEndian: withUnsafeBytes(of: uuid.uuid) { $0.loadUnaligned(as: UInt128.self) })
    }

    /// The UUID.
    var uuid: UUID {
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { $0.storeBytes(of: number.littleEndian, as: UInt128.self) }
        return UUID(uuid: bytes)
    }
}
