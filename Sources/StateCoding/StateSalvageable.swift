/// A type with a second, lenient way to decode: used only when the strict decode of a state file failed, to keep
/// every record that can still be read.
///
/// `@StateModel` (the StateModel product) generates ``init(salvaging:)`` for every model: each field is read as
/// in `init(from:)`, except that
/// - a field with a default (an initial value) or an optional takes its default, or `nil`, when its value cannot
///   be read, and the load report lists it by path in ``SalvageReport/defaultedFields``;
/// - a number where a `String` is expected becomes its decimal text, and a string of digits where an `Int` is
///   expected becomes that integer (``SalvageReport/coercedFields``); nothing else is converted;
/// - an array marked `@StateRecords` holds independent records: each is decoded on its own, and one that cannot be
///   read is dropped and listed (``SalvageReport/droppedRecords``) while the others are kept;
/// - a nested model is read with its own ``init(salvaging:)``, so a pane that cannot be read is dropped from its
///   project, not the project.
///
/// A required field that cannot be read fails its record; a record outside any `@StateRecords` array fails its
/// parent, up to the root, in which case the file cannot be salvaged and the corrupt-file policy applies.
///
/// Write one by hand with the `salvage` methods of `KeyedDecodingContainer`, when a model does not use the macro.
public protocol StateSalvageable: Decodable {
    /// Decodes leniently, recording every repair in the load's context (reached through `decoder.userInfo`).
    init(salvaging decoder: any Decoder) throws
}
