/// What loading one file of the corrupt-input corpus came to.
package enum CorpusOutcome: String, Sendable, CaseIterable {
    /// Loaded as it is (migrated, repaired or from a newer compatible release included).
    case loaded
    /// A salvage read what it could; the original bytes were kept.
    case salvaged
    /// Moved aside whole; the daemon starts empty.
    case quarantined
    /// A newer release's file this one may not read: refused and left untouched.
    case refusedNewer
}
