/// A type that writes itself straight into a state file's bytes with a ``StateDirectWriter``: the bytes its
/// `encode(to:)` gives through StateStore's encoder (`JSONEncoder`'s with sorted keys and unescaped slashes), byte
/// for byte, without the `Encoder` containers.
///
/// `@StateModel` (the StateModel product) generates the conformance for a model; StateCoding conforms the types
/// it reads directly (``StateDirectDecodable``). A save (StateStore's `StateCodec`) writes this way when the model
/// conforms, and encodes through `Encodable` when the direct write throws.
public protocol StateDirectEncodable: Encodable {
    /// Writes the value as `encode(to:)` would, or throws.
    ///
    /// - Throws: Any error, when the value is not one the direct write gives `encode(to:)`'s bytes for; the save
    ///   then encodes through `Encodable`.
    func write(stateWriter writer: inout StateDirectWriter) throws
}
