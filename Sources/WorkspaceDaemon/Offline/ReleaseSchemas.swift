import WorkspaceAPI
import WorkspaceModel
import WorkspaceStorage

/// One shipped release and the state file schema version it writes (and so the highest it reads).
package struct ReleaseSchema: Sendable, Equatable {
    /// The release, `MAJOR.MINOR.PATCH`.
    package var release: String
    /// The schema version of `workspace.json` it writes.
    package var schemaVersion: Int

    /// A row of the table.
    package init(release: String, schemaVersion: Int) {
        self.release = release
        self.schemaVersion = schemaVersion
    }
}

/// The table of releases and the schema version each reads, shipped in the binary: how a downgrade knows how
/// far down to write the state (`workspaced migrate --for-release VERSION`, run by the package's `prerm` when an
/// older package replaces this one).
///
/// Every release adds its row; a release that changes the schema says so here, and a test fails until the row of
/// ``Release/version`` names ``WorkspaceSchema/currentVersion``.
package enum ReleaseSchemas {
    /// Every release, oldest first.
    package static let shipped: [ReleaseSchema] = [
        ReleaseSchema(release: "0.1.0", schemaVersion: 4),
        ReleaseSchema(release: "0.2.0", schemaVersion: 4),
    ]

    /// The schema version `version` reads: that of the newest listed release not after it, so a patch release or
    /// a package revision (`0.2.0+2`, `0.2.0-1`) reads what its release reads. `nil` for a version before the
    /// first listed release, or one that is not a version.
    package static func schemaVersion(forRelease version: String, in table: [ReleaseSchema] = shipped) -> Int? {
        guard let key = ReleaseVersion(version) else { return nil }
        return table.last { ReleaseVersion($0.release).map { $0 <= key } ?? false }?.schemaVersion
    }
}

/// A release or package version compared by its numbers (`0.2.0+2` is [0, 2, 0, 2]), enough to order this
/// project's releases and their package revisions; an epoch (`1:`) is dropped.
struct ReleaseVersion: Comparable {
    let numbers: [Int]

    init?(_ text: String) {
        let withoutEpoch = text.split(separator: ":", maxSplits: 1).last.map(String.init) ?? text
        let numbers = withoutEpoch.split { !$0.isNumber }.compactMap { Int($0) }
        guard let first = withoutEpoch.first, first.isNumber, !numbers.isEmpty else { return nil }
        self.numbers = numbers
    }

    static func < (left: ReleaseVersion, right: ReleaseVersion) -> Bool {
        left.numbers.lexicographicallyPrecedes(right.numbers)
    }
}
