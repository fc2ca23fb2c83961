import FoundationEssentials

/// The JSON the offline tools print (`check --json`, `backups --json`): indented, keys sorted, slashes as they are,
/// dates as ISO-8601 in UTC.
enum OfflineJSON {
    /// `value` as that JSON; `{}` if it cannot be encoded (never for the reports, which hold only strings and
    /// numbers).
    static func text<Value: Encodable>(_ value: Value) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
