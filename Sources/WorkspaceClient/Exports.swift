// A client program imports WorkspaceClient alone: the contract's types (requests, responses, events, errors) and
// the records they carry come with it.
@_exported import WorkspaceAPI
@_exported import WorkspaceModel
