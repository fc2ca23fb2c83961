// A program that uses the records imports WorkspaceModel alone: the record runtime their public API is made of
// (`UnknownFields` and the rest of StateCoding, which is no product) comes with it, as StateStore brings it to a
// state library user.
@_exported import StateCoding
