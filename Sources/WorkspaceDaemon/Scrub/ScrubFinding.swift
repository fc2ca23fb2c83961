/// One file (or the replica) a scrub or `workspaced verify` read, and what it found.
package struct ScrubFinding: Sendable, Equatable {
    /// The file, or the replica's URL.
    package var path: String
    /// What is wrong with it; `nil` when it is whole.
    package var problem: String?
    /// What was checked, for a whole one (`pre-migration backup, version 3`).
    package var detail: String
    /// How many files the finding stands for (a history of 40 files is one finding of 40).
    package var files: Int
    /// Whether the file loads but its content checksum does not match: it changed outside the daemon since its
    /// last save (edited by hand, say). Whole, with a note in ``detail``.
    package var changedOutside = false

    /// A finding of `files` file(s) at `path`.
    package init(path: String, problem: String?, detail: String = "", files: Int = 1) {
        self.path = path
        self.problem = problem
        self.detail = detail
        self.files = files
    }

    /// `ok PATH: detail` or `DAMAGED PATH: problem`, as `workspaced verify` prints it.
    package var line: String {
        if let problem { return "DAMAGED \(path): \(problem)" }
        return "ok \(path): \(detail)"
    }
}
