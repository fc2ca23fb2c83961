/// Comparisons whose running time does not depend on where two secrets first differ.
public enum ConstantTime {
    /// Whether `lhs` and `rhs` hold the same bytes. Every byte is visited whatever the contents (an XOR
    /// accumulated over the whole length); only the lengths, which are not secret, can end it early.
    public static func equal(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices {
            difference |= lhs[index] ^ rhs[index]
        }
        return difference == 0
    }
}
