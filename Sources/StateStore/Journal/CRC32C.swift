import CChecksum

/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum of the change journal's records: the one
/// ext4's metadata, iSCSI and LevelDB's log use, with better error detection than CRC-32 for short records.
/// Computed by the processor's CRC-32C instruction where it has one (Sources/CChecksum/crc32c.c); the check value
/// of `"123456789"` is `0xE306_9283` (JournalFramingTests).
package enum CRC32C {
    /// The checksum of `bytes`, continuing from `crc` (the checksum of the bytes before them; 0 to start).
    package static func checksum(_ bytes: some Sequence<UInt8>, continuing crc: UInt32 = 0) -> UInt32 {
        if let sum = bytes.withContiguousStorageIfAvailable({ wsd_crc32c(crc, $0.baseAddress, $0.count) }) {
            return sum
        }
        return checksum(Array(bytes), continuing: crc)
    }

    /// The checksum of the bytes at `bytes`, continuing from `crc`.
    package static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        wsd_crc32c(crc, bytes.baseAddress, bytes.count)
    }

    /// Whether ``checksum(_:continuing:)`` uses the processor's instruction rather than a table.
    package static var usesInstruction: Bool { wsd_crc32c_is_hardware() != 0 }

    /// The table's checksum whatever the processor has, for the tests that compare it with the instruction's.
    package static func portableChecksum(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBufferPointer { wsd_crc32c_portable(crc, $0.baseAddress, $0.count) }
    }
}
