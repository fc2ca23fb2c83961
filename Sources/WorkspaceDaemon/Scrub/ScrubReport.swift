import FoundationEssentials

/// What one scrub pass read and found.
package struct ScrubReport: Sendable, Equatable {
    /// When it finished.
    package var finishedAt: Date
    /// How long it took.
    package var duration: Duration
    /// Every file (or the replica) it read, whole or not.
    package var findings: [ScrubFinding]

    /// The findings with a problem.
    package var damaged: [ScrubFinding] { findings.filter { $0.problem != nil } }
    /// How many files it read.
    package var filesChecked: Int { findings.reduce(0) { $0 + $1.files } }
    /// Whether every file was whole.
    package var passed: Bool { damaged.isEmpty }
}
