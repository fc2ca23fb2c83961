/// Counts the unknown fields a value holds, at every level, by walking it with `Mirror`: how a load checks that the
/// migration steps carried every unknown field they were handed (``MigrationContext/carry(_:to:declaring:)``).
///
/// Slow on a large model (every value is reflected), so a load walks only a model whose steps had unknown fields to
/// carry, which is rare.
enum UnknownFieldsCensus {
    /// The number of fields held in every `UnknownFields` inside `value`.
    static func count(in value: Any) -> Int {
        switch value {
        case let fields as UnknownFields:
            return fields.count
        case is String, is Int, is Bool, is Double, is JSONValue:
            return 0
        default:
            var total = 0
            for child in Mirror(reflecting: value).children {
                total += count(in: child.value)
            }
            return total
        }
    }
}
