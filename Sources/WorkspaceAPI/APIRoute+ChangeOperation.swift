extension APIRoute {
    /// The name a `change` event of `GET /v1/events` gives this operation (`project.create`), or `nil` for a
    /// route that changes no workspace record (reads, flush, tokens).
    public var changeOperation: String? { Self.changeOperations[self] }

}
