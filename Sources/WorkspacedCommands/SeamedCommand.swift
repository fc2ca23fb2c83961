import ArgumentParser

/// A subcommand that runs against the caller's ``WorkspacedSeams``: ``Workspaced/main(seams:)`` calls
/// ``validate(seams:)`` and then ``run(seams:)``; a plain `run()` (argument-parser's own `main`) runs them with
/// the shipped seams.
protocol SeamedCommand: AsyncParsableCommand {
    /// Checks what `validate()` cannot without the seams (a bound that depends on the schema); a
    /// `ValidationError` is reported as argument-parser reports one of `validate()`.
    func validate(seams: WorkspacedSeams) throws

    /// Runs the command with `seams`.
    func run(seams: WorkspacedSeams) async throws
}

extension SeamedCommand {
    /// Nothing to check beyond `validate()`.
    func validate(seams: WorkspacedSeams) throws {}

    /// Checks and runs the command with ``WorkspacedSeams/shipped``.
    func run() async throws {
        let seams = WorkspacedSeams.shipped
        try validate(seams: seams)
        try await run(seams: seams)
    }
}
