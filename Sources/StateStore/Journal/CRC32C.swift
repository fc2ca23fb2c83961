/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum of the change journal's records: the one
/// ext4's metadata, iSCSI and LevelDB's log use, with better error detection than CRC-32 for short records.
/// Table-driven, a byte at a time; the check value of `"123456789"` is `0xE306_9283` (JournalFramingTests).
package enum CRC32C {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? (value >> 1) ^ 0x82F6_3B78 : value >> 1 }
        return value
    }

    /// The checksum of `bytes`, continuing from `crc` (the checksum of the bytes before them; 0 to start).
    package static func checksum(_ bytes: some Sequence<UInt8>, continuing crc: UInt32 = 0) -> UInt32 {
        var value = ~crc
        for byte in bytes { value = table[Int((value ^ UInt32(byte)) & 0xff)] ^ (value >> 8) }
        return ~value
    }
}
