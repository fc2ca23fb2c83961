extension StateFile {
    /// Gives the state file's bytes the first free name of `<base><suffix>`, `<base>-2<suffix>`, … `<base>-1000<suffix>`
    /// without replacing anything: `place` puts them at one name and returns `false` when that name is taken.
    /// Returns the name placed, or `nil` when all are taken. Shared by quarantine and backups.
    func placeAtFirstFreeName(
        base: String, suffix: String, _ place: (String) throws(StateStoreError) -> Bool
    ) throws(StateStoreError) -> String? {
        for attempt in 1...1000 {
            let name = attempt == 1 ? base + suffix : base + "-\(attempt)" + suffix
            if try place(name) { return name }
        }
        return nil
    }
}
