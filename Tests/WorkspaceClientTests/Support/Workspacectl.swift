import TestSupport

/// Runs the built `workspacectl` with `arguments` and `WORKSPACED_SOCKET` set to `socket` (unless `nil`) through
/// ``runCommand(_:environment:descriptors:stderrIdentity:timeout:)``, which waits without holding a thread of the
/// cooperative pool (the stub's handlers need it). With a `launcher` (a program and its arguments), that program
/// is run instead, with the `workspacectl` path and `arguments` after its own.
func workspacectl(_ arguments: [String], socket: String?, launcher: [String] = []) async throws -> CommandResult {
    try await runCommand(
        launcher + [ProductPaths.executable("workspacectl")] + arguments,
        environment: socket.map { ["WORKSPACED_SOCKET": $0] } ?? [:])
}
