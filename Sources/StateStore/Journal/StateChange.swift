/// A change to a model that a journaled ``PersistentState`` records in its change journal before the change is
/// acknowledged, and replays after a crash onto the state file's snapshot.
///
/// A change is a value, not a closure: it is encoded (`Codable`) into the journal and decoded again by the next
/// start, possibly of a later release, so it describes what was asked at the level of meaning an API gives it
/// ("rename project X to Y"), never bytes of the model. It must carry everything it needs to apply identically a
/// second time: generated ids and timestamps are chosen before it is applied and stored in it.
///
/// ```swift
/// enum SettingsChange: StateChange {
///     case setTheme(String)
///     case addNote(id: UUID, text: String, at: Date)
///
///     func apply(to settings: inout Settings) throws(SettingsError) {
///         switch self {
///         case .setTheme(let theme): settings.theme = theme
///         case .addNote(let id, let text, let at): try settings.addNote(id: id, text: text, at: at)
///         }
///     }
/// }
/// ```
public protocol StateChange<Model>: Codable, Sendable {
    /// The model the change applies to.
    associatedtype Model
    /// What ``apply(to:)`` throws when the change does not apply (a validation error).
    associatedtype Failure: Error

    /// Applies the change to `model`. When it throws, the change is refused: at run time nothing changes and the
    /// caller gets the error; at replay the replay stops there and the journal is kept aside.
    func apply(to model: inout Model) throws(Failure)

    /// Whether ``apply(to:)`` throws only before it modifies anything (it validates first), so that it can run in
    /// place instead of on a copy of the model. `false` by default: a change made of several steps that can each
    /// fail must run on a copy to change nothing when one fails.
    var validatesBeforeMutating: Bool { get }

    /// Applies `changes`, which it takes, to `model` in place, in order, as a read of the past replays them: the
    /// position of the first that is `nil` or does not apply, with its error (`nil` for a missing change), or `nil`
    /// when all did. The model is then dropped, so no copy is made whatever ``validatesBeforeMutating`` says.
    ///
    /// A read of the past applies hundreds of thousands of changes. The default implementation is inlinable, so
    /// that the conforming module compiles the loop for its own types: run by the store's generic code, the loop
    /// spent two fifths of a read looking up the metadata of `Optional<Self>`. A conformance keeps the default, or
    /// gives its own loop (in its own module, with the same signature) to carry what its changes can share across
    /// a run of them, as the workspace's changes share a table of where its projects are.
    static func applyInPlace(_ changes: consuming [Self?], to model: inout Model) -> (position: Int, error: Failure?)?

    /// ``applyInPlace(_:to:)`` for one of the runs a replay applies one after the other to the same model (a start's
    /// replay and a read of the past apply their records in chunks, decoded on other threads meanwhile): `memo` is
    /// what the run before left in it (`nil` before the first), and what this run leaves is handed to the next. A
    /// conformance that keeps a table of where its records are, as the workspace's changes do, keeps it there, so
    /// that each chunk does not build it again. By default `memo` is not used.
    static func applyInPlace(
        _ changes: consuming [Self?], to model: inout Model, memo: inout Any?
    ) -> (position: Int, error: Failure?)?

    /// The bytes the change journal records for the change: its `encode(to:)` through `JSONEncoder` with sorted
    /// keys and unescaped slashes (dates as `JSONEncoder`'s default, seconds since 2001). A change that is also
    /// `StateDirectEncodable` (StateCoding) writes the same bytes with its direct writer, as a save writes a model,
    /// and falls back to `JSONEncoder` when the direct write throws. Conformances keep the defaults.
    ///
    /// - Throws: `EncodingError` when the change does not encode.
    func encodedForJournal() throws -> [UInt8]
}

extension StateChange {
    /// `false`: the change runs on a copy of the model, so a failure changes nothing.
    public var validatesBeforeMutating: Bool { false }

    /// Applies each change in turn (see the requirement).
    @inlinable
    public static func applyInPlace(
        _ changes: consuming [Self?], to model: inout Model
    ) -> (position: Int, error: Failure?)? {
        // Each change is moved out of the array it owns, not copied: a copy costs its strings' reference counts.
        var changes = changes
        return changes.withUnsafeMutableBufferPointer { buffer in
            for position in buffer.indices {
                guard let change = buffer[position].take() else { return (position, nil) }
                do throws(Failure) {
                    try change.apply(to: &model)
                } catch {
                    return (position, error)
                }
            }
            return nil
        }
    }

    /// ``applyInPlace(_:to:)``, without a memo (see the requirement).
    @inlinable
    public static func applyInPlace(
        _ changes: consuming [Self?], to model: inout Model, memo: inout Any?
    ) -> (position: Int, error: Failure?)? {
        applyInPlace(changes, to: &model)
    }
}

extension StateChange {
    /// Encodes the change through `Encodable` (see the requirement).
    public func encodedForJournal() throws -> [UInt8] {
        try JournalChangeEncoding.encodable(self)
    }
}

extension StateChange where Self: StateDirectEncodable {
    /// Writes the change with its direct writer, or through `Encodable` when that throws (see the requirement).
    public func encodedForJournal() throws -> [UInt8] {
        try JournalChangeEncoding.direct(self)
    }
}
