import WorkspacedCommands

/// The `workspaced` executable: runs ``Workspaced`` (WorkspacedCommands) on the process's arguments with the
/// shipped seams, on a worker, the main thread parked (``Workspaced/runParkingMainThread(seams:)`` says why).
@main
enum WorkspacedMain {
    static func main() {
        Workspaced.runParkingMainThread(seams: .shipped)
    }
}
