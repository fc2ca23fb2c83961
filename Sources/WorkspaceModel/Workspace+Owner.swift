/// Changing the owner's details.
extension Workspace {
    /// Sets the owner's alias: 1 to 256 characters, no control characters.
    ///
    /// - Throws: ``WorkspaceError/invalid(field:reason:)``.
    public mutating func setOwnerAlias(_ alias: String) throws(WorkspaceError) {
        try Validation.name(alias, field: "alias")
        owner.alias = alias
    }

    /// Sets the owner's e-mail address: empty for none, or `local@domain` without spaces, at most 254
    /// characters.
    ///
    /// - Throws: ``WorkspaceError/invalid(field:reason:)``.
    public mutating func setOwnerEmail(_ email: String) throws(WorkspaceError) {
        try Validation.email(email, field: "email")
        owner.email = email
    }
}
