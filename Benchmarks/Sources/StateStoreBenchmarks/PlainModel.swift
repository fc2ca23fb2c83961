import Foundation

/// The version-4 sample with synthesized Codable and no unknown-field capture: what a program that does not
/// use StateStore would decode. Used only as a baseline.
struct PlainNotebook: Codable {
    struct Note: Codable {
        var id: String
        var title: String
        var kind: String
        var pinned: Bool
        var createdAt: Date?
        var tags: [String]
    }
    struct Author: Codable {
        var givenName: String
        var familyName: String
    }
    var notes: [Note]
    var author: Author
    var version: Int
    var minReaderVersion: Int
}
