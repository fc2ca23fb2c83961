import FoundationEssentials

/// A state written as an older version by the reverse steps: the bytes and what moved on the way down.
public struct DowngradedState: Sendable, Equatable {
    /// The file's bytes at ``version``: the version and minimum reader version keys say ``version``, and no
    /// revision or lineage is stamped (the older release may not know them).
    public var data: Data
    /// The version written.
    public var version: Int
    /// The steps taken back, highest first: `3...4` means version 4 written as version 3.
    public var stepsReverted: [ClosedRange<Int>] = []
    /// Fields the older versions cannot hold, kept in their records' unknown fields, by field path with how many
    /// records had one: the older release keeps them, and the next upgrade takes them back.
    public var fieldsSetAside: [String: Int] = [:]
    /// Fields an older version requires that the state had no value for, by field path with how many records
    /// got the default.
    public var fieldsDefaulted: [String: Int] = [:]
    /// What the reverse steps had to map, in order.
    public var warnings: [String] = []

    /// One line: `written as version 3 (4→3); 2 field(s) set aside in unknown fields`.
    public var summary: String {
        var text = "written as version \(version)"
        if !stepsReverted.isEmpty {
            text += " (" + stepsReverted.map { "\($0.upperBound)→\($0.lowerBound)" }.joined(separator: ", ") + ")"
        }
        let setAside = fieldsSetAside.values.reduce(0, +)
        if setAside > 0 { text += "; \(setAside) field(s) set aside in unknown fields" }
        let defaulted = fieldsDefaulted.values.reduce(0, +)
        if defaulted > 0 { text += "; \(defaulted) field(s) defaulted" }
        if !warnings.isEmpty { text += "; \(warnings.count) warning(s)" }
        return text
    }
}
