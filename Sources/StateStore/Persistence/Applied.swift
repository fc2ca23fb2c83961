/// The result of an accepted change: what the change returned and the revision it was given.
public struct Applied<Value> {
    /// What the change closure returned.
    public var value: Value
    /// The revision of the state after the change; pass it to ``PersistentState/waitUntilDurable(_:)``.
    public var revision: UInt64

    /// A result with `value` at `revision`.
    public init(value: Value, revision: UInt64) {
        self.value = value
        self.revision = revision
    }
}

extension Applied: Sendable where Value: Sendable {}
