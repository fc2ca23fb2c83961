/// Why a ``StateDirectReader`` stopped: the direct read gives way to the `Codable` path, which names the defect
/// for people. Tests and the load's debug log read it.
public struct StateDirectReadError: Error, Sendable, CustomStringConvertible {
    /// What stopped the read, as a phrase.
    public let reason: String
    /// Where, as a byte offset in the document.
    public let byteOffset: Int

    /// An error saying `reason` at `byteOffset`.
    public init(_ reason: String, at byteOffset: Int) {
        self.reason = reason
        self.byteOffset = byteOffset
    }

    /// `duplicate key "id" at byte 120`.
    public var description: String { "\(reason) at byte \(byteOffset)" }
}
