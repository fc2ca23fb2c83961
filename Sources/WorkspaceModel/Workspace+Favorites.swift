import FoundationEssentials

/// Adding and removing favorites.
extension Workspace {
    /// Adds a favorite at the end and returns it.
    ///
    /// - Parameters:
    ///   - name: 1 to 256 characters, no control characters.
    ///   - path: An absolute path without NUL, at most 4096 bytes.
    ///   - createdAt: When it is added; the caller passes the clock's time, so the change stays pure.
    ///   - id: The new favorite's id, or `nil` for a fresh random one (122 random bits, not checked against
    ///     existing ids). A given id must not name an existing favorite.
    /// - Throws: ``WorkspaceError/invalid(field:reason:)`` or ``WorkspaceError/alreadyExists(kind:id:)``.
    @discardableResult
    public mutating func addFavorite(
        name: String, path: String, createdAt: Date, id: WorkspaceID? = nil
    ) throws(WorkspaceError) -> Favorite {
        try Validation.name(name, field: "name")
        try Validation.path(path, field: "path")
        let id = try newID(id, kind: .favorite)
        let favorite = Favorite(id: id, name: name, path: path, createdAt: createdAt)
        favorites.append(favorite)
        return favorite
    }

    /// Removes the favorite `id`.
    ///
    /// - Throws: ``WorkspaceError/notFound(kind:id:)``.
    public mutating func removeFavorite(_ id: WorkspaceID) throws(WorkspaceError) {
        favorites.remove(at: try favoriteIndex(id))
    }
}
