/// What a migration step tells the load report: fields it filled with a default and warnings about data it
/// had to map.
public struct MigrationContext: Sendable {
    /// The version the step reads.
    public let fromVersion: Int
    /// Defaulted fields by path (`panes[].focusedTabIndex`) with how many records got the default.
    public internal(set) var fieldsDefaulted: [String: Int] = [:]
    /// Warnings in the order they were raised.
    public internal(set) var warnings: [String] = []

    init(fromVersion: Int) {
        self.fromVersion = fromVersion
    }

    /// Records that `count` records got the default for `field`.
    public mutating func defaulted(_ field: String, count: Int = 1) {
        guard count > 0 else { return }
        fieldsDefaulted[field, default: 0] += count
    }

    /// Records a warning, such as a value that had to be mapped to a fallback.
    public mutating func warn(_ message: String) {
        warnings.append(message)
    }
}

/// What a repair pass tells the load report: each fix it made to data that would otherwise break clients.
public struct RepairLog: Sendable {
    /// The repairs in the order they were made.
    public internal(set) var repairs: [String] = []

    init() {}

    /// Records one repair.
    public mutating func repaired(_ message: String) {
        repairs.append(message)
    }
}
