import FoundationEssentials

extension LoadAttemptRecord {
    /// The record as `JSONEncoder` with sorted keys writes it, spelled directly, when it has no crash to tell of
    /// (every start writes one of those); `nil` otherwise, or for a number `JSONEncoder` might spell otherwise.
    /// A start's first `JSONEncoder` (its types' metadata and conformances) cost 0.3 ms, for a one-line record.
    var plainJSON: Data? {
        guard lastCrash == nil else { return nil }
        var members = ["\"attempts\":\(attempts)"]
        if let modified {
            // Double's description is its shortest round-trip spelling, as JSONEncoder's; an exponent or a
            // non-finite value is left to JSONEncoder.
            var text = modified.description
            guard modified.isFinite, !text.contains("e") else { return nil }
            // JSONEncoder writes a whole number without the ".0" that the description ends with.
            if text.hasSuffix(".0") { text.removeLast(2) }
            members.append("\"modified\":\(text)")
        }
        if let size { members.append("\"size\":\(size)") }
        // Copied from the string's bytes: Data's init from a sequence asks at run time whether the sequence has
        // contiguous bytes, a scan of every conformance in the process the first time (0.06 ms of a start).
        var text = "{" + members.joined(separator: ",") + "}"
        return text.withUTF8 { Data(buffer: $0) }
    }
}
