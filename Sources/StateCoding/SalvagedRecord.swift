/// One element of a `@StateRecords` array: the record, or `nil` when it cannot be read, in which case it is
/// dropped and listed in the load's ``SalvageReport`` with its path, its `id` if one can be read, and the reason.
///
/// Never throws, so the array's next element is read next.
struct SalvagedRecord<Element: Decodable>: Decodable {
    let value: Element?

    init(from decoder: any Decoder) throws {
        let context = LoadContext.of(decoder)
        let record: Element
        do {
            record = try Salvaging<Element>(from: decoder).value
        } catch {
            context?.recordDropped(
                at: decoder.codingPath, id: Self.id(in: decoder), reason: DecodingErrorDescription.describe(error))
            value = nil
            return
        }
        // JSONDecoder kept the first of two values under one key; the record goes unless a record inside it (read
        // above, so already dropped) took the duplicate with it.
        if let duplicate = context?.duplicateKeyNotDropped(within: decoder.codingPath) {
            context?.recordDropped(at: decoder.codingPath, id: Self.id(in: decoder), reason: duplicate)
            value = nil
        } else {
            value = record
        }
    }

    /// The record's `id` as text, when it has one that is a string or a number.
    private static func id(in decoder: any Decoder) -> String? {
        guard let container = try? decoder.container(keyedBy: AnyCodingKey.self),
            let id = try? container.decodeIfPresent(JSONValue.self, forKey: AnyCodingKey("id"))
        else { return nil }
        switch id {
        case .string(let text): return text
        case .integer(let number): return String(number)
        case .unsignedInteger(let number): return String(number)
        default: return nil
        }
    }
}

extension UnkeyedDecodingContainer {
    /// Every element that can be read as a record, the others dropped and listed.
    mutating func salvageRecords<Element: Decodable>(_ type: Element.Type) throws -> [Element] {
        var records: [Element] = []
        if let count { records.reserveCapacity(count) }
        while !isAtEnd {
            if let record = try decode(SalvagedRecord<Element>.self).value { records.append(record) }
        }
        return records
    }
}
