import FoundationEssentials

/// What the lock file says about the last owner of a state file: its pid while it runs, and after a clean stop
/// the lineage and revision it left and the file's size and modification time at that moment.
///
/// ```
/// 4711
/// closed 9f2c4e1a7b3d5e60 42 18231 1764107523.123456789
/// ```
///
/// A restore (``StateFile/restoreBackup(named:salvaging:)``) hands the file over with a new lineage and the word
/// `restored` at the end of the line, so that the next load says why the lineage is new (``LineageBreak/restored``).
///
/// A load continues the stored lineage only when the marker says the last owner stopped cleanly and the file is
/// still the one it left (same size and modification time): then every revision that owner handed out is in the
/// file, and nobody replaced or edited it since. The marker is cleared (and the clearing made durable) when the
/// next owner takes the lock, before it hands out any revision.
struct SessionMarker: Equatable, Sendable {
    /// The lineage the owner left.
    var lineage: Lineage
    /// The revision the owner left, which the file holds.
    var revision: UInt64
    /// The file's size and modification time when the owner stopped, or `nil` when there was no file.
    var file: FileStamp?
    /// Whether the owner was a restore, which put another file in place under a new lineage.
    var restored = false

    /// Size and modification time of a file, as compared to see whether it changed.
    struct FileStamp: Equatable, Sendable {
        var size: Int
        var modificationDate: Date
    }

    /// The marker's line in `lockFileText`, if it holds one that parses.
    init?(lockFileText: String) {
        guard
            let line = lockFileText.split(separator: "\n").first(where: { $0.hasPrefix("closed ") }),
            case let fields = line.split(separator: " "),
            fields.count == 5 || (fields.count == 6 && fields[5] == Self.restoredWord),
            let lineage = Lineage(rawValue: String(fields[1])), let revision = UInt64(fields[2])
        else { return nil }
        self.lineage = lineage
        self.revision = revision
        restored = fields.count == 6
        if fields[3] == "-" && fields[4] == "-" {
            file = nil
        } else if let size = Int(fields[3]), let seconds = Double(fields[4]) {
            file = FileStamp(size: size, modificationDate: Date(timeIntervalSince1970: seconds))
        } else {
            return nil
        }
    }

    /// A marker for a clean stop, or with `restored` for the hand-over of a restore.
    init(lineage: Lineage, revision: UInt64, file: FileStamp?, restored: Bool = false) {
        self.lineage = lineage
        self.revision = revision
        self.file = file
        self.restored = restored
    }

    /// The last field of a restore's marker.
    static let restoredWord = "restored"

    /// The marker's line, newline included.
    var line: String {
        let stamp = file.map { "\($0.size) \($0.modificationDate.timeIntervalSince1970)" } ?? "- -"
        return "closed \(lineage) \(revision) \(stamp)" + (restored ? " " + Self.restoredWord : "") + "\n"
    }
}
