import StateCoding

/// The rules new data must follow. Loaded data is not held to them (a file may carry values from a newer
/// release); only what a mutation writes is.
enum Validation {
    /// The longest name, in characters.
    static let maximumNameLength = 256
    /// The longest path, in UTF-8 bytes (Linux `PATH_MAX`).
    static let maximumPathBytes = 4096
    /// The longest e-mail address, in characters.
    static let maximumEmailLength = 254

    /// A name: 1 to 256 characters, none of them a control character or a line or paragraph separator.
    static func name(_ value: String, field: String) throws(WorkspaceError) {
        guard !value.isEmpty else { throw .invalid(field: field, reason: "must not be empty") }
        // A name of at most that many bytes has at most that many characters: counting characters (grapheme
        // breaking) is needed only for a longer one, and was a fifth of applying a rename.
        guard value.utf8.count <= maximumNameLength || value.count <= maximumNameLength else {
            throw .invalid(field: field, reason: "\(value.count) characters; at most \(maximumNameLength) allowed")
        }
        guard !containsControl(value) else {
            throw .invalid(field: field, reason: "must not contain control characters")
        }
    }

    /// A path: absolute, without NUL, at most 4096 bytes of UTF-8.
    static func path(_ value: String, field: String) throws(WorkspaceError) {
        guard value.hasPrefix("/") else { throw .invalid(field: field, reason: "must be an absolute path") }
        guard !value.utf8.contains(0) else { throw .invalid(field: field, reason: "must not contain NUL") }
        guard value.utf8.count <= maximumPathBytes else {
            throw .invalid(
                field: field, reason: "\(value.utf8.count) bytes; at most \(maximumPathBytes) allowed")
        }
    }

    /// An e-mail address: empty (none), or `local@domain` with no spaces or control characters, at most 254
    /// characters.
    static func email(_ value: String, field: String) throws(WorkspaceError) {
        guard !value.isEmpty else { return }
        guard value.count <= maximumEmailLength else {
            throw .invalid(field: field, reason: "\(value.count) characters; at most \(maximumEmailLength) allowed")
        }
        guard !containsControl(value), !value.unicodeScalars.contains(where: \.properties.isWhitespace) else {
            throw .invalid(field: field, reason: "must not contain spaces or control characters")
        }
        let parts = value.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw .invalid(field: field, reason: "must have the form local@domain")
        }
    }

    /// A value this release understands (new data never carries an unknown enum value).
    static func known<Value: ExtensibleEnum>(_ value: Value, field: String) throws(WorkspaceError) {
        guard value.isKnown else {
            let known = Value.knownValues.map(\.rawValue).joined(separator: ", ")
            throw .invalid(field: field, reason: "unknown value \"\(value.rawValue)\"; known: \(known)")
        }
    }

    static func containsControl(_ value: String) -> Bool {
        // ASCII text, nearly every name, is decided by its bytes: its controls are 0x00–0x1F and 0x7F. Only other
        // text pays for the Unicode category lookup below, the costliest part of a name's checks.
        var value = value
        // `withUTF8` reads the bytes in place (a native string's storage); iterating `utf8` advanced its index
        // through the generic path for each byte.
        let asciiVerdict = value.withUTF8 { bytes -> Bool? in
            for byte in bytes {
                if byte >= 0x80 { return nil }
                if byte < 0x20 || byte == 0x7F { return true }
            }
            return false
        }
        if let asciiVerdict { return asciiVerdict }
        return value.unicodeScalars.contains { scalar in
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: return true
            default: return false
            }
        }
    }
}
