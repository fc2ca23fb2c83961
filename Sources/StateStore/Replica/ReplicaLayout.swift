import FoundationEssentials

/// The objects of a replica, under its prefix:
///
/// - `lease.json`: who writes to the prefix (``ReplicaLease``), the one object replaced in place, and only by a
///   conditional write;
/// - `manifest.json`: the lineage a restore starts from, and how far the replica reaches (``ReplicaManifest``),
///   replaced by the lease holder after each pass that shipped something;
/// - `<lineage>/snapshot.<revision>.<milliseconds>.<sha256>.json`: a snapshot of the history (a state file as a
///   save left it), with when it was taken;
/// - `<lineage>/journal.<base>/<offset>.<end>.<sha256>`: bytes `offset..<end` of the journal segment of `lineage`
///   that continues revision `base`, whole records only. A segment grows while it is open, so it is shipped as
///   pieces that follow one another; a restore joins them.
///
/// Every object but the lease and the manifest is created once and never changed, and its name carries the
/// SHA-256 of its bytes, which a restore compares before it trusts them.
package enum ReplicaLayout {
    /// The lease's name.
    package static let lease = ReplicaObjectName("lease.json")!
    /// The manifest's name.
    package static let manifest = ReplicaObjectName("manifest.json")!

    /// What an object's name says it is.
    package enum Object: Equatable, Sendable {
        /// A snapshot of `revision` in `lineage`, taken at `milliseconds` since 1970.
        case snapshot(lineage: String, revision: UInt64, milliseconds: Int64, sha256: String)
        /// Bytes `offset..<end` of the segment of `lineage` continuing `base`.
        case piece(lineage: String, base: UInt64, offset: Int, end: Int, sha256: String)
    }

    /// The name of a snapshot.
    package static func snapshotName(
        lineage: String, revision: UInt64, milliseconds: Int64, sha256: String
    ) -> ReplicaObjectName {
        ReplicaObjectName("\(lineage)/snapshot.\(revision).\(max(0, milliseconds)).\(sha256).json")!
    }

    /// The name of a piece of a segment.
    package static func pieceName(
        lineage: String, base: UInt64, offset: Int, end: Int, sha256: String
    ) -> ReplicaObjectName {
        ReplicaObjectName("\(lineage)/journal.\(base)/\(padded(offset)).\(padded(end)).\(sha256)")!
    }

    /// What `name` is; `nil` for the lease, the manifest and any other object.
    package static func parse(_ name: ReplicaObjectName) -> Object? {
        let parts = name.rawValue.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let lineage = parts.first, Lineage(rawValue: lineage) != nil else { return nil }
        if parts.count == 2 {
            let fields = parts[1].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5, fields[0] == "snapshot", fields[4] == "json", let revision = UInt64(fields[1]),
                let milliseconds = Int64(fields[2]), isSHA256(fields[3])
            else { return nil }
            return .snapshot(lineage: lineage, revision: revision, milliseconds: milliseconds, sha256: fields[3])
        }
        if parts.count == 3 {
            let directory = parts[1].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            let fields = parts[2].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard directory.count == 2, directory[0] == "journal", let base = UInt64(directory[1]),
                fields.count == 3, let offset = Int(fields[0]), let end = Int(fields[1]), offset >= 0, end > offset,
                isSHA256(fields[2])
            else { return nil }
            return .piece(lineage: lineage, base: base, offset: offset, end: end, sha256: fields[2])
        }
        return nil
    }

    /// Offsets padded to 12 digits, so that a listing sorted by name lists a segment's pieces in order.
    private static func padded(_ value: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, 12 - digits.count)) + digits
    }

    private static func isSHA256(_ text: String) -> Bool {
        text.utf8.count == 64
            && text.utf8.allSatisfy {
                (0x30...0x39).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
            }
    }
}
