import FoundationEssentials

/// How the change journal encodes a change (``StateChange/encodedForJournal()``): one set of bytes for a change
/// whichever way it is written, so that the journal's records are the same from the direct writer and from
/// `Encodable`, and the same from one run to the next (`JSONEncoder` without sorted keys writes an object's members
/// in its dictionary's order, which changes with each process's hash seed).
enum JournalChangeEncoding {
    /// The bytes `JSONEncoder` gives with sorted keys and unescaped slashes, dates as its default.
    static func encodable<Change: Encodable>(_ change: Change) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(change))
    }

    /// The same bytes from the direct writer; through ``encodable(_:)`` when the direct write throws.
    static func direct<Change: StateDirectEncodable>(_ change: Change) throws -> [UInt8] {
        var writer = StateDirectWriter(dateCoding: .deferredToDate, capacity: 128, rootMembers: [])
        do {
            try change.write(stateWriter: &writer)
        } catch {
            return try encodable(change)
        }
        return [UInt8](writer.takeData())
    }
}
