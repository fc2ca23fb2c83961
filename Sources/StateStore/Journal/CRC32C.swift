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

    /// The position in `payloads` of the first journal record of `bytes` whose frame's checksum does not match its
    /// length and payload (``JournalFraming``), or `payloads.count` when every one matches. `payloads` are the
    /// records' payload ranges, each right after its 8 bytes of frame. With the instruction, three records at a
    /// time: a record's checksum waits on the instruction's latency, three independent ones fill it.
    package static func firstBadRecord(in bytes: UnsafeRawBufferPointer, payloads: [Range<Int>]) -> Int {
        // A range is two integers, its bounds in order (`Range` is frozen), which the C function reads as pairs.
        precondition(MemoryLayout<Range<Int>>.stride == 2 * MemoryLayout<Int64>.stride && Int.bitWidth == 64)
        guard let base = bytes.baseAddress, !payloads.isEmpty else { return 0 }
        return payloads.withUnsafeBytes { pairs in
            Int(wsd_crc32c_first_bad_record(base, pairs.bindMemory(to: Int64.self).baseAddress, pairs.count / 16))
        }
    }

    /// Whether ``checksum(_:continuing:)`` uses the processor's instruction rather than a table.
    package static var usesInstruction: Bool { wsd_crc32c_is_hardware() != 0 }

    /// The table's checksum whatever the processor has, for the tests that compare it with the instruction's.
    package static func portableChecksum(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBufferPointer { wsd_crc32c_portable(crc, $0.baseAddress, $0.count) }
    }
}
