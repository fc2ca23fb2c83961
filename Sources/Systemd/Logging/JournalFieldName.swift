/// Turns swift-log metadata keys into journal field names journald accepts.
///
/// journald silently drops fields whose names are not `[A-Z0-9_]`, start with `_` or a digit, or are longer
/// than 64 bytes. The mapping, applied to `prefix + key`:
/// 1. ASCII letters are upper-cased; ASCII digits and `_` are kept; every other character (`-`, `.`, space,
///    non-ASCII…) becomes `_`.
/// 2. Leading underscores are removed (they would claim a trusted field such as `_PID`).
/// 3. A name that is then empty, starts with a digit, equals a field the handler sets itself
///    (``reservedNames``) or one journald interprets (``journaldInterpretedNames``, or starting with `OBJECT_` or
///    `COREDUMP_`) gets `META_` in front, so metadata never changes how journald files or shows the entry.
/// 4. The result is cut to 64 characters.
///
/// Example with prefix `""`: `request-id` → `REQUEST_ID`, `user.name` → `USER_NAME`, `_secret` → `SECRET`,
/// `9lives` → `META_9LIVES`, `message` → `META_MESSAGE`, `unit` → `META_UNIT`. With prefix `app_`: `request-id` → `APP_REQUEST_ID`.
public enum JournalFieldName {
    /// The fields the handler sets itself; metadata never overrides them.
    public static let reservedNames: Set<String> = [
        "MESSAGE", "MESSAGE_ID", "PRIORITY", "SYSLOG_IDENTIFIER", "CODE_FILE", "CODE_LINE", "CODE_FUNC",
    ]

    /// The user-settable fields journald gives a meaning (systemd.journal-fields(7)): metadata named so would
    /// change the entry's facility, unit, thread, documentation link or the process it is attributed to.
    public static let journaldInterpretedNames: Set<String> = [
        "ERRNO", "INVOCATION_ID", "USER_INVOCATION_ID", "SYSLOG_FACILITY", "SYSLOG_PID", "SYSLOG_TIMESTAMP",
        "SYSLOG_RAW", "DOCUMENTATION", "TID", "UNIT", "USER_UNIT",
    ]

    /// Name prefixes journald interprets (`OBJECT_PID` and the fields logged on behalf of another process).
    public static let journaldInterpretedPrefixes = ["OBJECT_", "COREDUMP_"]

    /// The longest field name journald keeps.
    public static let maximumLength = 64

    /// The journal field name for metadata `key` under `prefix`.
    public static func forMetadataKey(_ key: String, prefix: String = "") -> String {
        var name = String(
            String.UnicodeScalarView(
                (prefix + key).unicodeScalars.map { scalar -> Unicode.Scalar in
                    switch scalar.value {
                    case 0x61...0x7A: return Unicode.Scalar(scalar.value - 0x20)!
                    case 0x41...0x5A, 0x30...0x39, 0x5F: return scalar
                    default: return "_"
                    }
                }
            )
        )
        name = String(name.drop(while: { $0 == "_" }))
        if name.isEmpty || name.first!.isNumber || reservedNames.contains(name)
            || journaldInterpretedNames.contains(name) || journaldInterpretedPrefixes.contains(where: name.hasPrefix)
        {
            name = "META_" + name
        }
        return String(name.prefix(maximumLength))
    }
}
