/// What the history manifest records of a file's bytes, computed from a read a piece at a time
/// (``HistoryArchive/fingerprint(of:)``).
struct FileFingerprint: Equatable {
    /// The bytes a fingerprint reads at a time: large enough that the calls cost nothing beside the hashing, small
    /// enough that no reader holds a snapshot whole. A start that migrates fingerprints the file it loaded while
    /// it saves the migrated state, at the load's peak: a mebibyte here raised it by 1 MB at 50 MB.
    static let pieceSize = 256 << 10

    /// The file's size.
    var bytes: Int
    /// Lowercase hex SHA-256 of its bytes.
    var sha256: String
    /// CRC-32C of its bytes.
    var crc32c: UInt32
}
