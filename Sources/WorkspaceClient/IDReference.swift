import Foundation
import WorkspaceAPI
import WorkspaceModel

/// A record id as a person gives it: a full id (a UUID in any letter case), or a prefix of one, as git and docker
/// take a commit or container id. ``IDPrefixResolver`` turns a prefix into the full id it names.
///
/// A prefix is at least ``minimumPrefixLength`` and at most 32 hexadecimal digits, in any letter case; hyphens are
/// ignored, so `3f2504e0-4f` and `3f2504e04f` name the same ids. Anything else is not a reference.
public enum IDReference: Sendable, Hashable, CustomStringConvertible {
    /// A full id; it needs no lookup.
    case full(WorkspaceID)
    /// The leading hexadecimal digits of an id, in lower case without hyphens, and the text as given.
    case prefix(digits: String, text: String)

    /// The fewest digits a prefix may have (git's rule): shorter ones match too many ids to be safe to act on.
    public static let minimumPrefixLength = 4

    /// Parses `text`: a full id, else a prefix; `nil` when it is neither (a character other than a hexadecimal
    /// digit or a hyphen, fewer than ``minimumPrefixLength`` digits or more than 32).
    public init?(_ text: String) {
        if let id = WorkspaceID(text) {
            self = .full(id)
            return
        }
        var digits = ""
        for character in text.lowercased() where character != "-" {
            guard character.isHexDigit, character.isASCII else { return nil }
            digits.append(character)
        }
        guard (Self.minimumPrefixLength...32).contains(digits.count) else { return nil }
        self = .prefix(digits: digits, text: text)
    }

    /// The reference as given.
    public var description: String {
        switch self {
        case .full(let id): id.text
        case .prefix(_, let text): text
        }
    }

    /// Whether `id` is the one this reference names exactly (case-insensitively; for a prefix, all 32 digits).
    public func isExactly(_ id: WorkspaceID) -> Bool {
        switch self {
        case .full(let full): full == id
        case .prefix(let digits, _): digits == id.hexDigits
        }
    }

    /// Whether `id` starts with this reference (a full id only starts with itself).
    public func isPrefix(of id: WorkspaceID) -> Bool {
        switch self {
        case .full(let full): full == id
        case .prefix(let digits, _): id.hexDigits.hasPrefix(digits)
        }
    }
}

extension WorkspaceID {
    /// The UUID's 32 hexadecimal digits in lower case, without hyphens: what an ``IDReference`` prefix is
    /// matched against.
    var hexDigits: String {
        String(uuid.uuidString.lowercased().filter { $0 != "-" })
    }
}
